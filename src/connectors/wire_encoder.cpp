#include "datapipelines/connectors/wire_encoder.hpp"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

// Parses exactly `width` digits at text[pos].
bool Digits(std::string_view text, std::size_t pos, std::size_t width, int& out) {
  if (pos + width > text.size()) return false;
  out = 0;
  for (std::size_t i = pos; i < pos + width; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    out = out * 10 + (text[i] - '0');
  }
  return true;
}

struct Clock6 {
  int hour = 0, minute = 0, second = 0, micros = 0;
  int offset_seconds = 0;  // east of UTC
};

// "HH:MM:SS[.f…][Z|±HH[:MM[:SS]]]" starting at pos; consumes the whole rest.
bool ParseClock(std::string_view text, std::size_t pos, Clock6& out) {
  if (!Digits(text, pos, 2, out.hour) || pos + 2 >= text.size() || text[pos + 2] != ':' ||
      !Digits(text, pos + 3, 2, out.minute)) {
    return false;
  }
  pos += 5;
  if (pos < text.size() && text[pos] == ':') {
    if (!Digits(text, pos + 1, 2, out.second)) return false;
    pos += 3;
  }
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (digits < 6) out.micros = out.micros * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0) return false;
    for (int i = digits; i < 6; ++i) out.micros *= 10;  // truncation, never rounding
  }
  if (pos < text.size() && text[pos] == ' ') ++pos;
  if (pos == text.size()) return out.hour <= 24 && out.minute < 60 && out.second <= 60;
  if (text[pos] == 'Z' && pos + 1 == text.size()) return true;
  if (text[pos] != '+' && text[pos] != '-') return false;
  int sign = text[pos] == '-' ? -1 : 1;
  int hh = 0, mm = 0, ss = 0;
  if (!Digits(text, pos + 1, 2, hh)) return false;
  pos += 3;
  if (pos < text.size() && text[pos] == ':') ++pos;
  if (pos < text.size()) {
    if (!Digits(text, pos, 2, mm)) return false;
    pos += 2;
  }
  if (pos < text.size() && text[pos] == ':') {
    if (!Digits(text, pos + 1, 2, ss)) return false;
    pos += 3;
  }
  if (pos != text.size()) return false;
  out.offset_seconds = sign * (hh * 3600 + mm * 60 + ss);
  return true;
}

std::optional<std::chrono::year_month_day> ParseDate(std::string_view text) {
  int y = 0, m = 0, d = 0;
  if (!Digits(text, 0, 4, y) || text.size() < 10 || text[4] != '-' || text[7] != '-' ||
      !Digits(text, 5, 2, m) || !Digits(text, 8, 2, d)) {
    return std::nullopt;
  }
  std::chrono::year_month_day ymd{std::chrono::year{y}, std::chrono::month{unsigned(m)},
                                  std::chrono::day{unsigned(d)}};
  if (!ymd.ok()) return std::nullopt;
  return ymd;
}

std::string FormatDate(const std::chrono::year_month_day& ymd) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", int(ymd.year()), unsigned(ymd.month()),
                unsigned(ymd.day()));
  return buf;
}

std::string FormatClock(int hour, int minute, int second, int micros) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%02d:%02d:%02d.%06d", hour, minute, second, micros);
  return buf;
}

std::optional<bool> ParseBool(std::string_view text) {
  if (text == "t" || text == "true" || text == "TRUE" || text == "1") return true;
  if (text == "f" || text == "false" || text == "FALSE" || text == "0") return false;
  // MySQL BIT(1) arrives as one raw byte.
  if (text.size() == 1 && (text[0] == '\x01' || text[0] == '\x00')) return text[0] == '\x01';
  // tinyint(1) holding another value: non-zero is true, as Connector/J's getBoolean reads it.
  int64_t number = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec == std::errc() && ptr == text.data() + text.size()) return number != 0;
  return std::nullopt;
}

Json EncodeInteger(std::string_view text) {
  int64_t number = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec == std::errc() && ptr == text.data() + text.size()) return number;
  return std::string(text);
}

Json EncodeDecimal(std::string_view text) {
  std::string owned(text);
  char* end = nullptr;
  double number = std::strtod(owned.c_str(), &end);
  if (end != owned.c_str() + owned.size() || !std::isfinite(number)) return owned;
  return number;
}

}  // namespace

std::optional<std::string> WireEncoder::NormalizeDate(std::string_view text) {
  auto ymd = ParseDate(text);
  if (!ymd) return std::nullopt;
  return FormatDate(*ymd);
}

std::optional<std::string> WireEncoder::NormalizeTime(std::string_view text) {
  Clock6 clock;
  if (!ParseClock(text, 0, clock)) return std::nullopt;
  return FormatClock(clock.hour, clock.minute, clock.second, clock.micros);
}

std::optional<std::string> WireEncoder::NormalizeTimestamp(std::string_view text) {
  auto ymd = ParseDate(text);
  if (!ymd) return std::nullopt;
  Clock6 clock;
  if (text.size() > 10) {
    if (text[10] != ' ' && text[10] != 'T') return std::nullopt;
    if (!ParseClock(text, 11, clock)) return std::nullopt;
  }
  using namespace std::chrono;
  sys_seconds local =
      sys_days{*ymd} + hours{clock.hour} + minutes{clock.minute} + seconds{clock.second};
  sys_seconds utc = local - seconds{clock.offset_seconds};
  auto day = floor<days>(utc);
  hh_mm_ss<seconds> tod{utc - day};
  return FormatDate(year_month_day{day}) + "T" +
         FormatClock(int(tod.hours().count()), int(tod.minutes().count()),
                     int(tod.seconds().count()), clock.micros) +
         "Z";
}

std::optional<std::string> WireEncoder::NormalizeDecimalText(std::string_view text) {
  std::size_t pos = 0;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) ++pos;
  bool digits = false, dot = false;
  for (std::size_t i = pos; i < text.size(); ++i) {
    if (text[i] >= '0' && text[i] <= '9') {
      digits = true;
    } else if (text[i] == '.' && !dot) {
      dot = true;
    } else {
      return std::nullopt;
    }
  }
  if (!digits) return std::nullopt;
  std::string out(text);
  if (out[0] == '+') out.erase(0, 1);
  return out;
}

Json WireEncoder::Encode(const TypeMapping& mapping, std::optional<std::string_view> text) {
  if (!text) return nullptr;
  std::string_view value = *text;
  switch (mapping.type) {
    case CanonicalType::kNull:
      return nullptr;
    case CanonicalType::kBoolean: {
      auto flag = ParseBool(value);
      if (flag) return *flag;
      return std::string(value);
    }
    case CanonicalType::kInteger:
      return EncodeInteger(value);
    case CanonicalType::kDecimal:
      return EncodeDecimal(value);
    case CanonicalType::kBigInteger:
    case CanonicalType::kBigDecimal:
      return NormalizeDecimalText(value).value_or(std::string(value));
    case CanonicalType::kBinary:
      return Base64Encode(value);
    case CanonicalType::kDate:
      return NormalizeDate(value).value_or(std::string(value));
    case CanonicalType::kTime:
      return NormalizeTime(value).value_or(std::string(value));
    case CanonicalType::kTimestamp:
      return NormalizeTimestamp(value).value_or(std::string(value));
    case CanonicalType::kString:
      break;
  }
  return std::string(value);
}

}  // namespace dp
