#pragma once
// An arbitrary-precision decimal with Java BigDecimal semantics: the number model of the
// template engine, because FreeMarker's default arithmetic engine is BigDecimal-based and
// output must match it digit for digit (division scale, rounding, ?c formatting).
#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dp::tmpl {

enum class RoundingMode { kHalfUp, kHalfEven, kFloor, kCeiling, kDown };

class Decimal {
 public:
  using BigInt = boost::multiprecision::cpp_int;

  // The largest number a render may hold (issue 9): digits of the unscaled value, and the
  // largest scale or exponent. Parse refuses longer literals; the evaluator refuses
  // arithmetic whose result would be longer before computing it.
  static constexpr int kMaxDigits = 10000;

  Decimal() = default;
  Decimal(BigInt unscaled, int scale) : unscaled_(std::move(unscaled)), scale_(scale) {}
  static Decimal FromInt(int64_t value) { return Decimal(BigInt(value), 0); }
  // Accepts JSON/FTL number syntax: -12, 1.50, 1e+20, 2.5E-3. Negative scales are normalised
  // to 0 so an exponent form and its plain form behave alike.
  static std::optional<Decimal> Parse(std::string_view text);
  // The shortest decimal that round-trips the double (what Double.toString shows).
  static Decimal FromDouble(double value);

  const BigInt& unscaled() const { return unscaled_; }
  int scale() const { return scale_; }
  bool IsZero() const { return unscaled_ == 0; }
  bool IsNegative() const { return unscaled_ < 0; }
  bool IsInteger() const;
  int Signum() const { return unscaled_ < 0 ? -1 : (unscaled_ > 0 ? 1 : 0); }
  // Decimal digits of the unscaled value, from its bit length (may overcount by one).
  int64_t ApproxDigits() const;

  Decimal operator+(const Decimal& other) const;
  Decimal operator-(const Decimal& other) const;
  Decimal operator*(const Decimal& other) const;
  Decimal operator-() const { return Decimal(-unscaled_, scale_); }
  // FreeMarker's BigDecimal engine multiply: the product's scale is capped at 12 (HALF_UP).
  // Unary minus is a multiplication by -1 there, so it is capped too.
  Decimal EngineMultiply(const Decimal& other) const;
  Decimal EngineNegate() const { return EngineMultiply(FromInt(-1)); }
  // FreeMarker's BigDecimal engine: scale max(12, s1, s2), HALF_UP. nullopt on division by 0.
  std::optional<Decimal> Divide(const Decimal& other) const;
  int Compare(const Decimal& other) const;

  Decimal SetScale(int new_scale, RoundingMode mode) const;
  // Truncates toward zero like BigDecimal.longValue() (saturating instead of wrapping).
  int64_t LongValue() const;
  // Whether the value is an integer that fits in int64.
  std::optional<int64_t> ExactInt64() const;
  double ToDouble() const;

  std::string ToPlainString() const;
  // Java DecimalFormat("0.################") — FreeMarker's "computer" format and ?c.
  std::string ToComputerString() const;
  // Plain digits of |value| rounded to max_fraction digits, split at the point.
  void Digits(int max_fraction, int min_fraction, RoundingMode mode, std::string* int_part,
              std::string* frac_part, bool* negative) const;

 private:
  BigInt unscaled_ = 0;
  int scale_ = 0;
};

}  // namespace dp::tmpl
