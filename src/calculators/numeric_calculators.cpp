// Numeric kinds (calculators §2.2): exact decimal arithmetic end to end, never a double.
#include "calculators/calculator_kinds.hpp"

namespace dp::calc {
namespace {

constexpr int64_t kMaxPlaces = 18;

int Places(const CalculatorArgs& args, int64_t min) {
  const int64_t places = args.Integer("places");
  if (places < min || places > kMaxPlaces) {
    args.Fail("places", "must be between " + std::to_string(min) + " and " +
                            std::to_string(kMaxPlaces) + ", got " + std::to_string(places));
  }
  return static_cast<int>(places);
}

Json Round(const CalculatorArgs& args) {
  const ExactDecimal value = args.Decimal("value");
  const int places = Places(args, -kMaxPlaces);
  const Rounding mode = args.RoundingMode("mode");
  try {
    return DecimalValue(value.Rescale(places, mode));
  } catch (const ExactDecimal::Overflow&) {
    args.Fail("value", "the result is too large to represent exactly");
  }
}

Json PercentChange(const CalculatorArgs& args) {
  const ExactDecimal current = args.Decimal("current");
  const ExactDecimal previous = args.Decimal("previous");
  const int places = Places(args, 0);
  if (previous.IsZero()) {
    args.Fail("previous",
              "previous is zero: a percent change from zero is undefined, not infinite");
  }
  try {
    const ExactDecimal change = (current - previous) * ExactDecimal::FromInteger(100);
    return DecimalValue(change.Divide(previous, places, Rounding::kHalfUp));
  } catch (const ExactDecimal::Overflow&) {
    args.Fail("current", "the result is too large to represent exactly");
  }
}

}  // namespace

void AddNumericCalculators(CalculatorTable& table) {
  table.emplace("round", Round);
  table.emplace("percent_change", PercentChange);
}

}  // namespace dp::calc
