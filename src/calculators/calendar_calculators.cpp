// Calendar kinds (calculators §2.1) other than the text and time-zone ones.
#include <set>

#include "calculators/calculator_kinds.hpp"

namespace dp::calc {
namespace {

// Shifts beyond this many units cannot land on a four-digit year; refusing them early keeps
// the arithmetic far from overflow.
constexpr int64_t kMaxShiftDays = 3'700'000;
constexpr int64_t kMaxShiftMonths = 120'000;

int64_t BoundedInteger(const CalculatorArgs& args, std::string_view name, int64_t limit) {
  const int64_t value = args.Integer(name);
  if (value > limit || value < -limit)
    args.Fail(name, "out of range (at most " + std::to_string(limit) + " either way)");
  return value;
}

Json QuarterOfYear(const CalculatorArgs& args) { return (args.Date("date").month - 1) / 3 + 1; }

Json FiscalYear(const CalculatorArgs& args) {
  return FiscalYearOf(args.Date("date"), args.FiscalStart("fiscal_start"));
}

Json FiscalQuarter(const CalculatorArgs& args) {
  return FiscalQuarterOf(args.Date("date"), args.FiscalStart("fiscal_start"));
}

Json PeriodStart(const CalculatorArgs& args) {
  const PeriodMath period = args.Period();
  return DateValue(args, period.StartOf(period.IndexOf(args.Date("date"))));
}

Json PeriodEnd(const CalculatorArgs& args) {
  const PeriodMath period = args.Period();
  return DateValue(args, period.EndOf(period.IndexOf(args.Date("date"))));
}

Json PriorPeriod(const CalculatorArgs& args) {
  const PeriodMath period = args.Period();
  const int64_t offset = BoundedInteger(args, "offset", kMaxShiftMonths);
  return DateValue(args, period.StartOf(period.IndexOf(args.Date("date")) - offset));
}

Json PeriodBounds(const CalculatorArgs& args) {
  const PeriodMath period = args.Period();
  const int64_t index = period.IndexOf(args.Date("date"));
  return Json{{"start", DateValue(args, period.StartOf(index))},
              {"end", DateValue(args, period.EndOf(index))}};
}

Json TrailingPeriods(const CalculatorArgs& args) {
  const PeriodMath period = args.Period();
  const int64_t count = BoundedInteger(args, "count", kMaxShiftMonths);
  if (count < 1) args.Fail("count", "must be at least 1, got " + std::to_string(count));
  const int64_t index = period.IndexOf(args.Date("date"));
  return Json{{"start", DateValue(args, period.StartOf(index - count))},
              {"end", DateValue(args, period.EndOf(index - 1))}};
}

Json DateTrunc(const CalculatorArgs& args) {
  PeriodCalendar calendar;
  calendar.week_start = args.WeekStart("week_start");
  const PeriodMath period(args.Unit("unit", true), calendar);
  return DateValue(args, period.StartOf(period.IndexOf(args.Date("date"))));
}

Json IsoWeek(const CalculatorArgs& args) { return IsoWeekNumber(args.Date("date")); }

Json IsoYear(const CalculatorArgs& args) { return IsoWeekYear(args.Date("date")); }

Json DayOfWeek(const CalculatorArgs& args) {
  const int week_start = args.WeekStart("week_start");
  return (IsoDayOfWeek(args.Date("date")) - week_start + 7) % 7 + 1;
}

Json DaysInMonthKind(const CalculatorArgs& args) {
  const CivilDate date = args.Date("date");
  return DaysInMonth(date.year, date.month);
}

Json DateDiff(const CalculatorArgs& args) {
  const CivilDate from = args.Date("from");
  const CivilDate to = args.Date("to");
  const int64_t days = DaysFromCivil(to) - DaysFromCivil(from);
  const int64_t months = WholeMonthsBetween(from, to);
  switch (args.Unit("unit", true)) {  // every division truncates toward zero
    case PeriodUnit::kDay:
      return days;
    case PeriodUnit::kWeek:
      return days / 7;
    case PeriodUnit::kMonth:
      return months;
    case PeriodUnit::kQuarter:
      return months / 3;
    case PeriodUnit::kYear:
      return months / 12;
  }
  return nullptr;
}

Json AddDaysKind(const CalculatorArgs& args) {
  const CivilDate date = args.Date("date");
  return DateValue(args, AddDays(date, BoundedInteger(args, "days", kMaxShiftDays)));
}

Json AddMonthsKind(const CalculatorArgs& args) {
  const CivilDate date = args.Date("date");
  return DateValue(args, AddMonths(date, BoundedInteger(args, "months", kMaxShiftMonths)));
}

Json AddBusinessDays(const CalculatorArgs& args) {
  const CivilDate start = args.Date("date");
  const int64_t days = BoundedInteger(args, "days", 1'000'000);
  std::set<int> weekend;
  for (const std::string& name : args.StringList("weekend_days")) {
    const int weekday = WeekdayNumber(name);
    if (weekday == 0) {
      args.Fail("weekend_days", "unknown day \"" + name + "\"; expected monday ... sunday");
    }
    weekend.insert(weekday);
  }
  if (weekend.size() == 7) args.Fail("weekend_days", "every day of the week is a weekend day");
  std::set<int64_t> holidays;
  for (const CivilDate& holiday : args.DateList("holidays"))
    holidays.insert(DaysFromCivil(holiday));

  const int64_t step = days < 0 ? -1 : 1;
  int64_t day = DaysFromCivil(start);
  for (int64_t remaining = days < 0 ? -days : days; remaining > 0;) {
    day += step;
    const bool working = !weekend.count(IsoDayOfWeek(CivilFromDays(day))) && !holidays.count(day);
    if (working) --remaining;
  }
  return DateValue(args, CivilFromDays(day));
}

}  // namespace

void AddCalendarCalculators(CalculatorTable& table) {
  table.emplace("quarter_of_year", QuarterOfYear);
  table.emplace("fiscal_year", FiscalYear);
  table.emplace("fiscal_quarter", FiscalQuarter);
  table.emplace("period_start", PeriodStart);
  table.emplace("period_end", PeriodEnd);
  table.emplace("prior_period", PriorPeriod);
  table.emplace("period_bounds", PeriodBounds);
  table.emplace("trailing_periods", TrailingPeriods);
  table.emplace("date_trunc", DateTrunc);
  table.emplace("iso_week", IsoWeek);
  table.emplace("iso_year", IsoYear);
  table.emplace("day_of_week", DayOfWeek);
  table.emplace("days_in_month", DaysInMonthKind);
  table.emplace("date_diff", DateDiff);
  table.emplace("add_days", AddDaysKind);
  table.emplace("add_months", AddMonthsKind);
  table.emplace("add_business_days", AddBusinessDays);
}

}  // namespace dp::calc
