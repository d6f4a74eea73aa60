#pragma once
// A small exact decimal (unscaled 128-bit integer x 10^-scale) for the numeric kinds: a money
// figure must never pass through a double on its way (calculators §2.2, BigDecimal semantics).
// Values beyond ~36 significant digits are refused rather than approximated.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dp::calc {

// The java.math.RoundingMode set, by its lowercase name.
enum class Rounding { kUp, kDown, kCeiling, kFloor, kHalfUp, kHalfDown, kHalfEven };
std::optional<Rounding> ParseRounding(std::string_view name);
// The accepted names, for error messages.
const char* RoundingNames();

class ExactDecimal {
 public:
  // Thrown when a result would exceed the representable range.
  class Overflow : public std::overflow_error {
   public:
    using std::overflow_error::overflow_error;
  };

  ExactDecimal() = default;
  static ExactDecimal FromInteger(long long value) { return ExactDecimal(value, 0); }
  // Plain or exponent notation: "-12", "2.345", "1e3", "2.5E-3".
  static std::optional<ExactDecimal> Parse(std::string_view text);
  // The shortest decimal that reads back as `value` (the digits a JSON number was written in).
  static std::optional<ExactDecimal> FromDouble(double value);

  bool IsZero() const { return unscaled_ == 0; }
  int scale() const { return scale_; }

  ExactDecimal operator-(const ExactDecimal& other) const;
  ExactDecimal operator*(const ExactDecimal& other) const;
  // this / divisor rounded to `places` digits after the point. divisor must not be zero.
  ExactDecimal Divide(const ExactDecimal& divisor, int places, Rounding mode) const;
  ExactDecimal Rescale(int places, Rounding mode) const;

  // Plain notation keeping the scale: 25.00, -0.5, 120 (a negative scale is expanded).
  std::string ToString() const;
  double ToDouble() const;

 private:
  using Int = __int128;
  ExactDecimal(Int unscaled, int scale) : unscaled_(unscaled), scale_(scale) {}
  static Int Pow10(int exponent);
  static Int CheckedMultiply(Int a, Int b);
  static Int RoundedQuotient(Int numerator, Int denominator, Rounding mode);

  Int unscaled_ = 0;
  int scale_ = 0;
};

}  // namespace dp::calc
