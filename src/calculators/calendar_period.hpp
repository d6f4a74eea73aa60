#pragma once
// Period math shared by every kind that works in weeks, months, quarters or years
// (period_start, period_end, prior_period, period_bounds, trailing_periods, date_trunc,
// fiscal_year, fiscal_quarter): each period of a unit has an integer index, so "the period
// containing a date", "N periods back" and "the last day of a period" are one computation.
#include <cstdint>
#include <optional>
#include <string_view>

#include "calculators/civil_date.hpp"

namespace dp::calc {

enum class PeriodUnit { kDay, kWeek, kMonth, kQuarter, kYear };
std::optional<PeriodUnit> ParsePeriodUnit(std::string_view name);

// How quarters, years and weeks fall. `fiscal` moves quarter and year boundaries to
// `fiscal_start`; a month is a calendar month in both modes, a week starts on `week_start`.
struct PeriodCalendar {
  bool fiscal = false;
  MonthDay fiscal_start{1, 1};
  int week_start = 1;  // ISO day number: 1 = Monday, 7 = Sunday
};

// The fiscal year a date falls in, labelled by the calendar year it starts in.
int64_t FiscalYearOf(const CivilDate& date, const MonthDay& fiscal_start);
// 1-4 within that fiscal year.
int FiscalQuarterOf(const CivilDate& date, const MonthDay& fiscal_start);

class PeriodMath {
 public:
  PeriodMath(PeriodUnit unit, PeriodCalendar calendar) : unit_(unit), calendar_(calendar) {}

  int64_t IndexOf(const CivilDate& date) const;
  CivilDate StartOf(int64_t index) const;
  CivilDate EndOf(int64_t index) const { return AddDays(StartOf(index + 1), -1); }

 private:
  PeriodUnit unit_;
  PeriodCalendar calendar_;
};

}  // namespace dp::calc
