#include "datapipelines/connectors/wire/wire_encoder.hpp"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <openssl/evp.h>

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

// Fixed-width zero-padded digits, written by hand: this runs for every temporal cell.
void AppendDigits(std::string& out, int value, int width) {
  char digits[8];
  for (int i = width - 1; i >= 0; --i, value /= 10) digits[i] = static_cast<char>('0' + value % 10);
  out.append(digits, static_cast<std::size_t>(width));
}

void AppendYearMonthDay(std::string& out, const std::chrono::year_month_day& ymd) {
  int year = int(ymd.year());
  if (year < 0 || year > 9999) {  // a UTC shift past year 0: keep printf's "%04d" spelling
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04d", year);
    out += buf;
  } else {
    AppendDigits(out, year, 4);
  }
  out += '-';
  AppendDigits(out, int(unsigned(ymd.month())), 2);
  out += '-';
  AppendDigits(out, int(unsigned(ymd.day())), 2);
}

void AppendClock(std::string& out, int hour, int minute, int second, int micros) {
  AppendDigits(out, hour, 2);
  out += ':';
  AppendDigits(out, minute, 2);
  out += ':';
  AppendDigits(out, second, 2);
  out += '.';
  AppendDigits(out, micros, 6);
}

bool AppendDateText(std::string& out, std::string_view text) {
  auto ymd = ParseDate(text);
  if (!ymd) return false;
  AppendYearMonthDay(out, *ymd);
  return true;
}

bool AppendTimeText(std::string& out, std::string_view text) {
  Clock6 clock;
  if (!ParseClock(text, 0, clock)) return false;
  AppendClock(out, clock.hour, clock.minute, clock.second, clock.micros);
  return true;
}

bool AppendTimestampText(std::string& out, std::string_view text) {
  auto ymd = ParseDate(text);
  if (!ymd) return false;
  Clock6 clock;
  if (text.size() > 10) {
    if (text[10] != ' ' && text[10] != 'T') return false;
    if (!ParseClock(text, 11, clock)) return false;
  }
  using namespace std::chrono;
  sys_seconds local =
      sys_days{*ymd} + hours{clock.hour} + minutes{clock.minute} + seconds{clock.second};
  sys_seconds utc = local - seconds{clock.offset_seconds};
  auto day = floor<days>(utc);
  hh_mm_ss<seconds> tod{utc - day};
  AppendYearMonthDay(out, year_month_day{day});
  out += 'T';
  AppendClock(out, int(tod.hours().count()), int(tod.minutes().count()), int(tod.seconds().count()),
              clock.micros);
  out += 'Z';
  return true;
}

// The canonical text of a BIGINTEGER/BIGDECIMAL: the input itself, minus a leading '+'.
std::optional<std::string_view> CheckedDecimalText(std::string_view text) {
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
  return text[0] == '+' ? text.substr(1) : text;
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

// from_chars first (no copy); strtod only for what it alone accepts (hex, '+', spaces,
// out-of-range), so the value is exactly what strtod always gave.
std::optional<double> ParseDouble(std::string_view text) {
  double number = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || ptr != text.data() + text.size()) {
    std::string owned(text);
    char* end = nullptr;
    number = std::strtod(owned.c_str(), &end);
    if (end != owned.c_str() + owned.size()) return std::nullopt;
  }
  if (!std::isfinite(number)) return std::nullopt;
  return number;
}

WireScalar Text(std::string_view text) {
  WireScalar out;
  out.kind = WireScalar::Kind::kText;
  out.text = text;
  return out;
}

// Runs `append` into scratch; the normalized text on success, the input unchanged otherwise.
template <typename Append>
WireScalar Normalized(std::string_view value, std::string& scratch, Append append) {
  scratch.clear();
  return Text(append(scratch, value) ? std::string_view(scratch) : value);
}

WireScalar Base64(std::string_view value, std::string& scratch) {
  scratch.resize(4 * ((value.size() + 2) / 3));
  int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(scratch.data()),
                                reinterpret_cast<const unsigned char*>(value.data()),
                                static_cast<int>(value.size()));
  scratch.resize(static_cast<std::size_t>(written));
  return Text(scratch);
}

}  // namespace

namespace {

std::optional<std::string> Owned(bool ok, std::string&& text) {
  if (!ok) return std::nullopt;
  return std::move(text);
}

}  // namespace

std::optional<std::string> WireEncoder::NormalizeDate(std::string_view text) {
  std::string out;
  bool ok = AppendDateText(out, text);
  return Owned(ok, std::move(out));
}

std::optional<std::string> WireEncoder::NormalizeTime(std::string_view text) {
  std::string out;
  bool ok = AppendTimeText(out, text);
  return Owned(ok, std::move(out));
}

std::optional<std::string> WireEncoder::NormalizeTimestamp(std::string_view text) {
  std::string out;
  bool ok = AppendTimestampText(out, text);
  return Owned(ok, std::move(out));
}

std::optional<std::string> WireEncoder::NormalizeDecimalText(std::string_view text) {
  auto canonical = CheckedDecimalText(text);
  if (!canonical) return std::nullopt;
  return std::string(*canonical);
}

WireScalar WireEncoder::Scalar(const TypeMapping& mapping, std::optional<std::string_view> text,
                               std::string& scratch) {
  if (!text || mapping.type == CanonicalType::kNull) return {};
  std::string_view value = *text;
  WireScalar out;
  switch (mapping.type) {
    case CanonicalType::kBoolean:
      if (auto flag = ParseBool(value)) {
        out.kind = WireScalar::Kind::kBool;
        out.flag = *flag;
        return out;
      }
      return Text(value);
    case CanonicalType::kInteger: {
      auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), out.integer);
      if (ec != std::errc() || ptr != value.data() + value.size()) return Text(value);
      out.kind = WireScalar::Kind::kInteger;
      return out;
    }
    case CanonicalType::kDecimal:
      if (auto number = ParseDouble(value)) {
        out.kind = WireScalar::Kind::kDouble;
        out.number = *number;
        return out;
      }
      return Text(value);
    case CanonicalType::kBigInteger:
    case CanonicalType::kBigDecimal:
      return Text(CheckedDecimalText(value).value_or(value));  // already canonical: passed through
    case CanonicalType::kBinary:
      return Base64(value, scratch);
    case CanonicalType::kDate:
      return Normalized(value, scratch, AppendDateText);
    case CanonicalType::kTime:
      return Normalized(value, scratch, AppendTimeText);
    case CanonicalType::kTimestamp:
      return Normalized(value, scratch, AppendTimestampText);
    case CanonicalType::kNull:
    case CanonicalType::kString:
      break;
  }
  return Text(value);
}

Json WireEncoder::Encode(const TypeMapping& mapping, std::optional<std::string_view> text) {
  std::string scratch;
  WireScalar scalar = Scalar(mapping, text, scratch);
  switch (scalar.kind) {
    case WireScalar::Kind::kNull:
      return nullptr;
    case WireScalar::Kind::kBool:
      return scalar.flag;
    case WireScalar::Kind::kInteger:
      return scalar.integer;
    case WireScalar::Kind::kDouble:
      return scalar.number;
    case WireScalar::Kind::kText:
      break;
  }
  // Normalized text already lives in scratch: hand that string over instead of copying it.
  if (scalar.text.data() == scratch.data() && scalar.text.size() == scratch.size()) {
    return scratch;
  }
  return std::string(scalar.text);
}

}  // namespace dp
