// The BigDecimal-compatible number model behind template arithmetic and formatting.
#include "template/java/decimal.hpp"

#include <gtest/gtest.h>

namespace dp::tmpl {
namespace {

Decimal D(const char* text) { return *Decimal::Parse(text); }

TEST(Decimal, ParsesPlainAndExponentForms) {
  EXPECT_EQ(D("0125").ToPlainString(), "125");  // not octal
  EXPECT_EQ(D("0.125").ToPlainString(), "0.125");
  EXPECT_EQ(D("-1.50").scale(), 2);
  EXPECT_EQ(D("1e3").ToPlainString(), "1000");
  EXPECT_EQ(D("2.5E-3").ToPlainString(), "0.0025");
  EXPECT_FALSE(Decimal::Parse("1.2.3"));
  EXPECT_FALSE(Decimal::Parse("abc"));
  EXPECT_FALSE(Decimal::Parse(""));
}

TEST(Decimal, DivisionUsesFreeMarkerScaleAndHalfUp) {
  EXPECT_EQ(D("1").Divide(D("3"))->ToPlainString(), "0.333333333333");
  EXPECT_EQ(D("2").Divide(D("3"))->ToPlainString(), "0.666666666667");
  EXPECT_EQ(D("1.00000000000000").Divide(D("4"))->ToPlainString(), "0.25000000000000");
  EXPECT_FALSE(D("1").Divide(D("0")));
}

TEST(Decimal, EngineMultiplyCapsScaleAtTwelve) {
  EXPECT_EQ(D("0.0000001").EngineMultiply(D("0.0000001")).ToPlainString(), "0.000000000000");
  EXPECT_EQ(D("1.5").EngineMultiply(D("1.5")).ToPlainString(), "2.25");
}

TEST(Decimal, ComputerFormatMatchesJavaDecimalFormat) {
  EXPECT_EQ(D("1000.00").ToComputerString(), "1000");
  EXPECT_EQ(D("12345678901234567890.123456789012345678").ToComputerString(),
            "12345678901234567890.1234567890123457");
  EXPECT_EQ(D("0.00000000000000005").ToComputerString(), "0");  // half-even
  EXPECT_EQ(D("0.00000000000000015").ToComputerString(), "0.0000000000000002");
  EXPECT_EQ(D("-0.00000000000000001").ToComputerString(), "-0");
}

TEST(Decimal, RoundingModes) {
  EXPECT_EQ(D("2.5").SetScale(0, RoundingMode::kHalfEven).ToPlainString(), "2");
  EXPECT_EQ(D("2.5").SetScale(0, RoundingMode::kHalfUp).ToPlainString(), "3");
  EXPECT_EQ(D("-2.5").SetScale(0, RoundingMode::kHalfUp).ToPlainString(), "-3");
  EXPECT_EQ(D("-1.5").SetScale(0, RoundingMode::kFloor).ToPlainString(), "-2");
  EXPECT_EQ(D("-1.5").SetScale(0, RoundingMode::kCeiling).ToPlainString(), "-1");
  EXPECT_EQ(D("1e30").LongValue(), INT64_MAX);
  EXPECT_EQ(D("-3.9").LongValue(), -3);
}

TEST(Decimal, FromDoubleUsesShortestRepresentation) {
  EXPECT_EQ(Decimal::FromDouble(0.1).ToPlainString(), "0.1");
  EXPECT_EQ(Decimal::FromDouble(1e20).ToPlainString(), "100000000000000000000");
  EXPECT_EQ(Decimal::FromDouble(100.0).ToPlainString(), "100");
}

}  // namespace
}  // namespace dp::tmpl
