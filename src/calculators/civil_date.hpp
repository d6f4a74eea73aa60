#pragma once
// Proleptic Gregorian date arithmetic on plain integers (Howard Hinnant's days-from-civil
// algorithms): the calendar every DATE calculator computes in, with no time zone involved.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dp::calc {

struct CivilDate {
  int64_t year = 1970;
  int month = 1;  // 1-12
  int day = 1;    // 1-31

  friend bool operator==(const CivilDate&, const CivilDate&) = default;
};

// Division rounding toward negative infinity (a day or month count before 1970 included).
int64_t FloorDiv(int64_t a, int64_t b);

bool IsLeapYear(int64_t year);
int DaysInMonth(int64_t year, int month);
// Days since 1970-01-01 (negative before it).
int64_t DaysFromCivil(const CivilDate& date);
CivilDate CivilFromDays(int64_t days);
// ISO day of week: 1 = Monday ... 7 = Sunday.
int IsoDayOfWeek(const CivilDate& date);
int DayOfYear(const CivilDate& date);
// ISO-8601 week-based year and week number (1-53).
int64_t IsoWeekYear(const CivilDate& date);
int IsoWeekNumber(const CivilDate& date);
// Shifted by whole months, the day clamped to the target month's last day.
CivilDate AddMonths(const CivilDate& date, int64_t months);
CivilDate AddDays(const CivilDate& date, int64_t days);
// Java's LocalDate.until(..., MONTHS): whole months, truncated toward zero.
int64_t WholeMonthsBetween(const CivilDate& from, const CivilDate& to);

// The DATE wire form: exactly "YYYY-MM-DD" and a day the calendar has.
std::optional<CivilDate> ParseIsoDate(std::string_view text);
std::string FormatIsoDate(const CivilDate& date);
// The range a DATE wire form can carry (four-digit years).
bool IsWireRepresentable(const CivilDate& date);

// A month-day such as a fiscal start "04-06": exactly "MM-DD", a day some year has
// (02-29 included).
struct MonthDay {
  int month = 1;
  int day = 1;
};
std::optional<MonthDay> ParseMonthDay(std::string_view text);
// MonthDay.atYear: 02-29 becomes 02-28 in a non-leap year.
CivilDate AtYear(const MonthDay& month_day, int64_t year);

}  // namespace dp::calc
