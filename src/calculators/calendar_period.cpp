#include "calculators/calendar_period.hpp"

namespace dp::calc {
namespace {

// The first day of fiscal quarter `quarter` (0-3; 4 = the next fiscal year's first day).
// Quarters are whole months after the year's first day, clamped like add_months; the next
// year's first day is resolved on its own so a 02-29 start lands on 02-29 in leap years.
CivilDate FiscalQuarterStart(int64_t fiscal_year, int quarter, const MonthDay& fiscal_start) {
  if (quarter >= 4) return AtYear(fiscal_start, fiscal_year + 1);
  return AddMonths(AtYear(fiscal_start, fiscal_year), 3 * quarter);
}

// A days-since-epoch value that falls on ISO weekday `week_start` (1970-01-05 was a Monday).
int64_t WeekAnchor(int week_start) { return 4 + (week_start - 1); }

}  // namespace

std::optional<PeriodUnit> ParsePeriodUnit(std::string_view name) {
  if (name == "day") return PeriodUnit::kDay;
  if (name == "week") return PeriodUnit::kWeek;
  if (name == "month") return PeriodUnit::kMonth;
  if (name == "quarter") return PeriodUnit::kQuarter;
  if (name == "year") return PeriodUnit::kYear;
  return std::nullopt;
}

int64_t FiscalYearOf(const CivilDate& date, const MonthDay& fiscal_start) {
  const int64_t days = DaysFromCivil(date);
  return days < DaysFromCivil(AtYear(fiscal_start, date.year)) ? date.year - 1 : date.year;
}

int FiscalQuarterOf(const CivilDate& date, const MonthDay& fiscal_start) {
  const int64_t year = FiscalYearOf(date, fiscal_start);
  const int64_t days = DaysFromCivil(date);
  for (int quarter = 3; quarter > 0; --quarter) {
    if (days >= DaysFromCivil(FiscalQuarterStart(year, quarter, fiscal_start))) return quarter + 1;
  }
  return 1;
}

int64_t PeriodMath::IndexOf(const CivilDate& date) const {
  switch (unit_) {
    case PeriodUnit::kDay:
      return DaysFromCivil(date);
    case PeriodUnit::kWeek:
      return FloorDiv(DaysFromCivil(date) - WeekAnchor(calendar_.week_start), 7);
    case PeriodUnit::kMonth:
      return date.year * 12 + date.month - 1;
    case PeriodUnit::kQuarter:
      if (calendar_.fiscal) {
        return FiscalYearOf(date, calendar_.fiscal_start) * 4 +
               FiscalQuarterOf(date, calendar_.fiscal_start) - 1;
      }
      return date.year * 4 + (date.month - 1) / 3;
    case PeriodUnit::kYear:
      return calendar_.fiscal ? FiscalYearOf(date, calendar_.fiscal_start) : date.year;
  }
  return 0;
}

CivilDate PeriodMath::StartOf(int64_t index) const {
  switch (unit_) {
    case PeriodUnit::kDay:
      return CivilFromDays(index);
    case PeriodUnit::kWeek:
      return CivilFromDays(index * 7 + WeekAnchor(calendar_.week_start));
    case PeriodUnit::kMonth:
      return CivilDate{FloorDiv(index, 12), static_cast<int>(index - FloorDiv(index, 12) * 12) + 1,
                       1};
    case PeriodUnit::kQuarter: {
      const int64_t year = FloorDiv(index, 4);
      const int quarter = static_cast<int>(index - year * 4);
      if (calendar_.fiscal) return FiscalQuarterStart(year, quarter, calendar_.fiscal_start);
      return CivilDate{year, quarter * 3 + 1, 1};
    }
    case PeriodUnit::kYear:
      return calendar_.fiscal ? AtYear(calendar_.fiscal_start, index) : CivilDate{index, 1, 1};
  }
  return CivilDate{};
}

}  // namespace dp::calc
