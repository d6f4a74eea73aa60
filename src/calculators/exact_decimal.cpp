#include "calculators/exact_decimal.hpp"

#include <charconv>
#include <cstdlib>

namespace dp::calc {
namespace {

using Int = __int128;
// Magnitudes at or above 10^36 are refused, leaving headroom for one more multiply by 10.
constexpr int kMaxDigits = 36;

Int Abs(Int value) { return value < 0 ? -value : value; }

}  // namespace

std::optional<Rounding> ParseRounding(std::string_view name) {
  if (name == "half_up") return Rounding::kHalfUp;
  if (name == "half_even") return Rounding::kHalfEven;
  if (name == "half_down") return Rounding::kHalfDown;
  if (name == "floor") return Rounding::kFloor;
  if (name == "ceiling" || name == "ceil") return Rounding::kCeiling;
  if (name == "up") return Rounding::kUp;
  if (name == "down") return Rounding::kDown;
  return std::nullopt;
}

const char* RoundingNames() {
  return "half_up, half_even, half_down, floor, ceiling (or ceil), up, down";
}

Int ExactDecimal::Pow10(int exponent) {
  if (exponent < 0 || exponent > kMaxDigits) throw Overflow("decimal out of range");
  Int result = 1;
  for (int i = 0; i < exponent; ++i) result *= 10;
  return result;
}

Int ExactDecimal::CheckedMultiply(Int a, Int b) {
  static const Int kLimit = Pow10(kMaxDigits);
  if (a == 0 || b == 0) return 0;
  if (Abs(a) >= kLimit / Abs(b) + 1) throw Overflow("decimal out of range");
  const Int product = a * b;
  if (Abs(product) >= kLimit) throw Overflow("decimal out of range");
  return product;
}

Int ExactDecimal::RoundedQuotient(Int numerator, Int denominator, Rounding mode) {
  if (denominator < 0) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const Int quotient = numerator / denominator;  // truncated toward zero
  const Int remainder = numerator % denominator;
  if (remainder == 0) return quotient;
  const int sign = numerator < 0 ? -1 : 1;
  const Int twice = Abs(remainder) * 2;
  bool away = false;  // round away from zero?
  switch (mode) {
    case Rounding::kUp:
      away = true;
      break;
    case Rounding::kDown:
      away = false;
      break;
    case Rounding::kCeiling:
      away = sign > 0;
      break;
    case Rounding::kFloor:
      away = sign < 0;
      break;
    case Rounding::kHalfUp:
      away = twice >= denominator;
      break;
    case Rounding::kHalfDown:
      away = twice > denominator;
      break;
    case Rounding::kHalfEven:
      away = twice > denominator || (twice == denominator && quotient % 2 != 0);
      break;
  }
  return away ? quotient + sign : quotient;
}

std::optional<ExactDecimal> ExactDecimal::Parse(std::string_view text) {
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) negative = text[pos++] == '-';
  Int unscaled = 0;
  int scale = 0, digits = 0;
  bool seen_digit = false, seen_point = false;
  for (; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    seen_digit = true;
    if (unscaled != 0 || c != '0') ++digits;
    if (digits > kMaxDigits) return std::nullopt;
    unscaled = unscaled * 10 + (c - '0');
    if (seen_point) ++scale;
  }
  if (!seen_digit) return std::nullopt;
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    int exponent = 0;
    const char* first = text.data() + pos + 1;
    if (first < text.data() + text.size() && *first == '+') ++first;
    auto [end, ec] = std::from_chars(first, text.data() + text.size(), exponent);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    scale -= exponent;
    pos = text.size();
  }
  if (pos != text.size() || scale > 1000 || scale < -kMaxDigits) return std::nullopt;
  ExactDecimal value(negative ? -unscaled : unscaled, scale);
  if (scale < 0) {  // normalise 1e3 to 1000 so the scale is never negative
    try {
      value = ExactDecimal(CheckedMultiply(value.unscaled_, Pow10(-scale)), 0);
    } catch (const Overflow&) {
      return std::nullopt;
    }
  }
  return value;
}

std::optional<ExactDecimal> ExactDecimal::FromDouble(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  if (ec != std::errc()) return std::nullopt;
  return Parse(std::string_view(buffer, static_cast<size_t>(end - buffer)));
}

ExactDecimal ExactDecimal::operator-(const ExactDecimal& other) const {
  const int scale = std::max(scale_, other.scale_);
  const Int a = CheckedMultiply(unscaled_, Pow10(scale - scale_));
  const Int b = CheckedMultiply(other.unscaled_, Pow10(scale - other.scale_));
  const Int difference = a - b;
  if (Abs(difference) >= Pow10(kMaxDigits)) throw Overflow("decimal out of range");
  return ExactDecimal(difference, scale);
}

ExactDecimal ExactDecimal::operator*(const ExactDecimal& other) const {
  return ExactDecimal(CheckedMultiply(unscaled_, other.unscaled_), scale_ + other.scale_);
}

ExactDecimal ExactDecimal::Divide(const ExactDecimal& divisor, int places, Rounding mode) const {
  // this / divisor = (u1 / u2) * 10^(s2 - s1); scaled to `places`: u1 * 10^(places + s2 - s1) / u2.
  const int shift = places + divisor.scale_ - scale_;
  Int numerator = unscaled_;
  Int denominator = divisor.unscaled_;
  if (shift >= 0) {
    numerator = CheckedMultiply(numerator, Pow10(shift));
  } else {
    denominator = CheckedMultiply(denominator, Pow10(-shift));
  }
  return ExactDecimal(RoundedQuotient(numerator, denominator, mode), places);
}

ExactDecimal ExactDecimal::Rescale(int places, Rounding mode) const {
  if (places >= scale_)
    return ExactDecimal(CheckedMultiply(unscaled_, Pow10(places - scale_)), places);
  return ExactDecimal(RoundedQuotient(unscaled_, Pow10(scale_ - places), mode), places);
}

std::string ExactDecimal::ToString() const {
  Int magnitude = Abs(unscaled_);
  std::string reversed;  // least significant digit first, then turned around once
  do {
    reversed.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  if (scale_ > 0 && reversed.size() <= static_cast<size_t>(scale_)) {
    reversed.append(static_cast<size_t>(scale_) - reversed.size() + 1, '0');  // leading zeros
  }
  std::string text = unscaled_ < 0 ? "-" : "";
  for (size_t i = reversed.size(); i-- > 0;) {
    text.push_back(reversed[i]);
    if (scale_ > 0 && i == static_cast<size_t>(scale_)) text.push_back('.');
  }
  if (scale_ < 0) text.append(static_cast<size_t>(-scale_), '0');
  return text;
}

double ExactDecimal::ToDouble() const { return std::strtod(ToString().c_str(), nullptr); }

}  // namespace dp::calc
