#include "calculators/civil_date.hpp"

#include <cstdio>

namespace dp::calc {

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

namespace {

bool ParseDigits(std::string_view text, size_t pos, size_t count, int* out) {
  int value = 0;
  for (size_t i = pos; i < pos + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    value = value * 10 + (text[i] - '0');
  }
  *out = value;
  return true;
}

// The Monday that starts ISO week 1 of `year`: the week holding January 4th.
int64_t IsoWeekOneMonday(int64_t year) {
  CivilDate jan4{year, 1, 4};
  return DaysFromCivil(jan4) - (IsoDayOfWeek(jan4) - 1);
}

}  // namespace

bool IsLeapYear(int64_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

int64_t DaysFromCivil(const CivilDate& date) {
  const int64_t y = date.year - (date.month <= 2 ? 1 : 0);
  const int64_t era = FloorDiv(y, 400);
  const int64_t yoe = y - era * 400;
  const int64_t mp = (date.month + 9) % 12;
  const int64_t doy = (153 * mp + 2) / 5 + date.day - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

CivilDate CivilFromDays(int64_t days) {
  days += 719468;
  const int64_t era = FloorDiv(days, 146097);
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return CivilDate{yoe + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

int IsoDayOfWeek(const CivilDate& date) {
  // 1970-01-01 was a Thursday (4).
  return static_cast<int>(((DaysFromCivil(date) + 3) % 7 + 7) % 7) + 1;
}

int DayOfYear(const CivilDate& date) {
  return static_cast<int>(DaysFromCivil(date) - DaysFromCivil(CivilDate{date.year, 1, 1})) + 1;
}

int64_t IsoWeekYear(const CivilDate& date) {
  const int64_t days = DaysFromCivil(date);
  if (days >= IsoWeekOneMonday(date.year + 1)) return date.year + 1;
  if (days < IsoWeekOneMonday(date.year)) return date.year - 1;
  return date.year;
}

int IsoWeekNumber(const CivilDate& date) {
  return static_cast<int>((DaysFromCivil(date) - IsoWeekOneMonday(IsoWeekYear(date))) / 7) + 1;
}

CivilDate AddMonths(const CivilDate& date, int64_t months) {
  const int64_t index = date.year * 12 + (date.month - 1) + months;
  const int64_t year = FloorDiv(index, 12);
  const int month = static_cast<int>(index - year * 12) + 1;
  const int last = DaysInMonth(year, month);
  return CivilDate{year, month, date.day > last ? last : date.day};
}

CivilDate AddDays(const CivilDate& date, int64_t days) {
  return CivilFromDays(DaysFromCivil(date) + days);
}

int64_t WholeMonthsBetween(const CivilDate& from, const CivilDate& to) {
  const int64_t packed_from = (from.year * 12 + from.month - 1) * 32 + from.day;
  const int64_t packed_to = (to.year * 12 + to.month - 1) * 32 + to.day;
  return (packed_to - packed_from) / 32;  // C++ division truncates toward zero, like Java's
}

std::optional<CivilDate> ParseIsoDate(std::string_view text) {
  int year = 0, month = 0, day = 0;
  if (text.size() != 10 || text[4] != '-' || text[7] != '-' || !ParseDigits(text, 0, 4, &year) ||
      !ParseDigits(text, 5, 2, &month) || !ParseDigits(text, 8, 2, &day)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month)) return std::nullopt;
  return CivilDate{year, month, day};
}

std::string FormatIsoDate(const CivilDate& date) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%04lld-%02d-%02d", static_cast<long long>(date.year),
                date.month, date.day);
  return buffer;
}

bool IsWireRepresentable(const CivilDate& date) { return date.year >= 0 && date.year <= 9999; }

std::optional<MonthDay> ParseMonthDay(std::string_view text) {
  int month = 0, day = 0;
  if (text.size() != 5 || text[2] != '-' || !ParseDigits(text, 0, 2, &month) ||
      !ParseDigits(text, 3, 2, &day)) {
    return std::nullopt;
  }
  // 2000 is a leap year, so 02-29 counts as a day the calendar has.
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(2000, month)) return std::nullopt;
  return MonthDay{month, day};
}

CivilDate AtYear(const MonthDay& month_day, int64_t year) {
  const int last = DaysInMonth(year, month_day.month);
  return CivilDate{year, month_day.month, month_day.day > last ? last : month_day.day};
}

}  // namespace dp::calc
