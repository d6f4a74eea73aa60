#include "template/java/decimal.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace dp::tmpl {
namespace {

using BigInt = Decimal::BigInt;

BigInt Pow10(int exponent) {
  BigInt result = 1;
  static const BigInt kTen = 10;
  for (int i = 0; i < exponent; ++i) result *= kTen;
  return result;
}

BigInt Abs(const BigInt& value) { return value < 0 ? BigInt(-value) : value; }

// Divides num by den (den > 0) rounding the quotient by mode.
BigInt DivideRounded(const BigInt& num, const BigInt& den, RoundingMode mode) {
  BigInt quotient = num / den;  // truncates toward zero
  BigInt remainder = num - quotient * den;
  if (remainder == 0) return quotient;
  const int sign = num < 0 ? -1 : 1;
  const BigInt twice = Abs(remainder) * 2;
  switch (mode) {
    case RoundingMode::kDown:
      return quotient;
    case RoundingMode::kFloor:
      return sign < 0 ? BigInt(quotient - 1) : quotient;
    case RoundingMode::kCeiling:
      return sign > 0 ? BigInt(quotient + 1) : quotient;
    case RoundingMode::kHalfUp:
      return twice >= den ? BigInt(quotient + sign) : quotient;
    case RoundingMode::kHalfEven:
      if (twice > den || (twice == den && (Abs(quotient) % 2) == 1)) return quotient + sign;
      return quotient;
  }
  return quotient;
}

void Align(const Decimal& a, const Decimal& b, BigInt* ua, BigInt* ub, int* scale) {
  *scale = std::max(a.scale(), b.scale());
  *ua = a.unscaled() * Pow10(*scale - a.scale());
  *ub = b.unscaled() * Pow10(*scale - b.scale());
}

}  // namespace

std::optional<Decimal> Decimal::Parse(std::string_view text) {
  if (text.empty()) return std::nullopt;
  size_t pos = 0;
  bool negative = false;
  if (text[pos] == '-' || text[pos] == '+') negative = text[pos++] == '-';
  std::string digits;
  int scale = 0;
  bool seen_digit = false;
  bool seen_point = false;
  for (; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
      seen_digit = true;
      if (seen_point) ++scale;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!seen_digit) return std::nullopt;
  long exponent = 0;
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    const char* begin = text.data() + pos;
    if (pos < text.size() && text[pos] == '+') ++begin;
    auto [end, ec] = std::from_chars(begin, text.data() + text.size(), exponent);
    if (ec != std::errc() || std::labs(exponent) > kMaxDigits) return std::nullopt;
    pos = end - text.data();
  }
  if (pos != text.size()) return std::nullopt;
  if (digits.size() > static_cast<size_t>(kMaxDigits)) return std::nullopt;
  BigInt unscaled;
  if (digits.size() <= 18) {  // fits an int64: no cpp_int string parse (the common case)
    int64_t small = 0;
    for (char c : digits) small = small * 10 + (c - '0');
    unscaled = small;
  } else {
    // cpp_int reads a leading 0 as octal.
    const size_t first = digits.find_first_not_of('0');
    unscaled = BigInt(first == std::string::npos ? std::string("0") : digits.substr(first));
  }
  long new_scale = scale - exponent;
  if (new_scale < 0) {
    unscaled *= Pow10(static_cast<int>(-new_scale));
    new_scale = 0;
  }
  return Decimal(negative ? BigInt(-unscaled) : unscaled, static_cast<int>(new_scale));
}

Decimal Decimal::FromDouble(double value) {
  if (!std::isfinite(value)) return Decimal();
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  auto parsed = Parse(std::string_view(buffer, end - buffer));
  return parsed ? *parsed : Decimal();
}

int64_t Decimal::ApproxDigits() const {
  if (unscaled_ == 0) return 1;
  const auto bits = boost::multiprecision::msb(boost::multiprecision::abs(unscaled_)) + 1;
  return static_cast<int64_t>(static_cast<double>(bits) * 0.30103) + 1;
}

bool Decimal::IsInteger() const {
  if (scale_ <= 0) return true;
  return unscaled_ % Pow10(scale_) == 0;
}

Decimal Decimal::operator+(const Decimal& other) const {
  BigInt a, b;
  int scale;
  Align(*this, other, &a, &b, &scale);
  return Decimal(a + b, scale);
}

Decimal Decimal::operator-(const Decimal& other) const {
  BigInt a, b;
  int scale;
  Align(*this, other, &a, &b, &scale);
  return Decimal(a - b, scale);
}

Decimal Decimal::operator*(const Decimal& other) const {
  return Decimal(unscaled_ * other.unscaled_, scale_ + other.scale_);
}

Decimal Decimal::EngineMultiply(const Decimal& other) const {
  Decimal product = *this * other;
  return product.scale_ > 12 ? product.SetScale(12, RoundingMode::kHalfUp) : product;
}

std::optional<Decimal> Decimal::Divide(const Decimal& other) const {
  if (other.IsZero()) return std::nullopt;
  const int scale = std::max({12, scale_, other.scale_});
  // result = (u1 / 10^s1) / (u2 / 10^s2), expressed with `scale` fraction digits.
  const int shift = scale - scale_ + other.scale_;
  BigInt num = unscaled_;
  BigInt den = other.unscaled_;
  if (shift >= 0) {
    num *= Pow10(shift);
  } else {
    den *= Pow10(-shift);
  }
  if (den < 0) {
    den = -den;
    num = -num;
  }
  return Decimal(DivideRounded(num, den, RoundingMode::kHalfUp), scale);
}

int Decimal::Compare(const Decimal& other) const {
  BigInt a, b;
  int scale;
  Align(*this, other, &a, &b, &scale);
  return a < b ? -1 : (a > b ? 1 : 0);
}

Decimal Decimal::SetScale(int new_scale, RoundingMode mode) const {
  if (new_scale >= scale_) return Decimal(unscaled_ * Pow10(new_scale - scale_), new_scale);
  return Decimal(DivideRounded(unscaled_, Pow10(scale_ - new_scale), mode), new_scale);
}

int64_t Decimal::LongValue() const {
  BigInt truncated = SetScale(0, RoundingMode::kDown).unscaled_;
  static const BigInt kMax = std::numeric_limits<int64_t>::max();
  static const BigInt kMin = std::numeric_limits<int64_t>::min();
  if (truncated > kMax) return std::numeric_limits<int64_t>::max();
  if (truncated < kMin) return std::numeric_limits<int64_t>::min();
  return truncated.convert_to<int64_t>();
}

std::optional<int64_t> Decimal::ExactInt64() const {
  if (!IsInteger()) return std::nullopt;
  BigInt truncated = SetScale(0, RoundingMode::kDown).unscaled_;
  if (truncated > std::numeric_limits<int64_t>::max() ||
      truncated < std::numeric_limits<int64_t>::min()) {
    return std::nullopt;
  }
  return truncated.convert_to<int64_t>();
}

double Decimal::ToDouble() const {
  double value = 0;
  const std::string text = ToPlainString();
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

std::string Decimal::ToPlainString() const {
  std::string digits = Abs(unscaled_).str();
  if (scale_ > 0) {
    if (static_cast<int>(digits.size()) <= scale_) {
      digits.insert(0, scale_ - digits.size() + 1, '0');
    }
    digits.insert(digits.size() - scale_, ".");
  } else if (scale_ < 0) {
    digits.append(-scale_, '0');
  }
  return unscaled_ < 0 ? "-" + digits : digits;
}

void Decimal::Digits(int max_fraction, int min_fraction, RoundingMode mode, std::string* int_part,
                     std::string* frac_part, bool* negative) const {
  Decimal rounded = scale_ > max_fraction ? SetScale(max_fraction, mode) : *this;
  // java.text.DecimalFormat keeps the sign of a negative value that rounds to zero ("-0").
  *negative = unscaled_ < 0;
  std::string digits = Abs(rounded.unscaled_).str();
  const int scale = std::max(rounded.scale_, 0);
  if (rounded.scale_ < 0) digits.append(-rounded.scale_, '0');
  if (static_cast<int>(digits.size()) <= scale) digits.insert(0, scale - digits.size() + 1, '0');
  *int_part = digits.substr(0, digits.size() - scale);
  *frac_part = digits.substr(digits.size() - scale);
  while (static_cast<int>(frac_part->size()) > min_fraction && !frac_part->empty() &&
         frac_part->back() == '0') {
    frac_part->pop_back();
  }
  while (static_cast<int>(frac_part->size()) < min_fraction) frac_part->push_back('0');
  // Leading zeros beyond one are never significant.
  size_t first = int_part->find_first_not_of('0');
  *int_part = first == std::string::npos ? "0" : int_part->substr(first);
}

std::string Decimal::ToComputerString() const {
  // Integers (the common case: ids, limits, counts) print as their digits.
  if (scale_ == 0) {
    if (auto exact = ExactInt64()) return std::to_string(*exact);
  }
  std::string int_part, frac_part;
  bool negative = false;
  Digits(16, 0, RoundingMode::kHalfEven, &int_part, &frac_part, &negative);
  std::string out = negative ? "-" : "";
  out += int_part;
  if (!frac_part.empty()) out += "." + frac_part;
  return out;
}

}  // namespace dp::tmpl
