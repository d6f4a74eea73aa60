#include "results/arrow_temporal.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

namespace dp::arrow {
namespace {

[[noreturn]] void Invalid(const char* what, std::string_view text) {
  throw std::invalid_argument(std::string("not a wire ") + what + ": \"" + std::string(text) +
                              "\"");
}

// Reads exactly `width` ASCII digits at `pos`.
bool Digits(std::string_view text, size_t pos, size_t width, int& value) {
  if (pos + width > text.size()) return false;
  value = 0;
  for (size_t i = pos; i < pos + width; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    value = value * 10 + (text[i] - '0');
  }
  return true;
}

// The date at the front of `text`; `pos` ends past it. A leading '-' and more than four
// year digits are accepted because a UTC shift can carry a timestamp past year 0 or 9999.
std::chrono::sys_days ParseDate(std::string_view text, size_t& pos, const char* what) {
  pos = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) ++pos;
  const size_t year_start = pos;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && pos - year_start < 6) ++pos;
  int year = 0, month = 0, day = 0;
  if (pos - year_start < 4 || !Digits(text, year_start, pos - year_start, year) ||
      pos + 6 > text.size() || text[pos] != '-' || text[pos + 3] != '-' ||
      !Digits(text, pos + 1, 2, month) || !Digits(text, pos + 4, 2, day)) {
    Invalid(what, text);
  }
  pos += 6;
  std::chrono::year_month_day ymd{std::chrono::year{negative ? -year : year},
                                  std::chrono::month{static_cast<unsigned>(month)},
                                  std::chrono::day{static_cast<unsigned>(day)}};
  if (!ymd.ok()) Invalid(what, text);
  return std::chrono::sys_days{ymd};
}

// "HH:MM:SS[.f…]" at `pos` → microseconds into the day; `pos` ends past it.
int64_t ParseClock(std::string_view text, size_t& pos) {
  int hour = 0, minute = 0, second = 0;
  if (!Digits(text, pos, 2, hour) || pos + 8 > text.size() || text[pos + 2] != ':' ||
      !Digits(text, pos + 3, 2, minute) || text[pos + 5] != ':' ||
      !Digits(text, pos + 6, 2, second) || hour > 23 || minute > 59 || second > 60) {
    Invalid("TIMESTAMP", text);
  }
  pos += 8;
  int64_t micros = (hour * 3600LL + minute * 60LL + second) * 1'000'000;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int64_t scale = 100'000;
    const size_t first = pos;
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos, scale /= 10) {
      micros += (text[pos] - '0') * scale;  // scale reaches 0 past µs: truncation
    }
    if (pos == first) Invalid("TIMESTAMP", text);
  }
  return micros;
}

// "", "Z" or "±HH[[:]MM[[:]SS]]" → seconds east of UTC.
int64_t ParseOffset(std::string_view text, size_t pos) {
  const std::string_view zone = text.substr(pos);
  if (zone.empty() || zone == "Z" || zone == "z") return 0;
  if (zone[0] != '+' && zone[0] != '-') Invalid("TIMESTAMP", text);
  int parts[3] = {0, 0, 0};
  size_t at = 1;
  for (int i = 0; i < 3 && at < zone.size(); ++i) {
    if (i > 0 && zone[at] == ':') ++at;
    if (!Digits(zone, at, 2, parts[i])) Invalid("TIMESTAMP", text);
    at += 2;
  }
  if (at != zone.size() || parts[1] > 59 || parts[2] > 59) Invalid("TIMESTAMP", text);
  const int64_t seconds = parts[0] * 3600LL + parts[1] * 60LL + parts[2];
  return zone[0] == '-' ? -seconds : seconds;
}

}  // namespace

int32_t DaysSinceEpoch(std::string_view date) {
  size_t pos = 0;
  const std::chrono::sys_days days = ParseDate(date, pos, "DATE");
  if (pos != date.size()) Invalid("DATE", date);
  return static_cast<int32_t>(days.time_since_epoch().count());
}

int64_t MicrosSinceEpoch(std::string_view timestamp) {
  size_t pos = 0;
  const std::chrono::sys_days days = ParseDate(timestamp, pos, "TIMESTAMP");
  int64_t micros = 0;
  if (pos < timestamp.size()) {
    if (timestamp[pos] != 'T' && timestamp[pos] != 't' && timestamp[pos] != ' ') {
      Invalid("TIMESTAMP", timestamp);
    }
    ++pos;
    micros = ParseClock(timestamp, pos);
  }
  const int64_t offset_seconds = ParseOffset(timestamp, pos);
  return days.time_since_epoch().count() * 86'400'000'000LL + micros - offset_seconds * 1'000'000;
}

}  // namespace dp::arrow
