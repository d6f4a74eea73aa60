#include "datapipelines/connectors/wire/wire_encoder.hpp"

#include <gtest/gtest.h>

#include "datapipelines/connectors/type_mapper.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

TEST(WireEncoderTest, NullIsNullForEveryType) {
  for (auto type : {CanonicalType::kInteger, CanonicalType::kString, CanonicalType::kTimestamp,
                    CanonicalType::kBinary, CanonicalType::kBigDecimal}) {
    EXPECT_TRUE(WireEncoder::Encode(Simple(type), std::nullopt).is_null());
  }
}

TEST(WireEncoderTest, IntegersAndBigIntegers) {
  EXPECT_EQ(WireEncoder::Encode(Simple(CanonicalType::kInteger), "-2147483648"), Json(-2147483648));
  Json big = WireEncoder::Encode(Simple(CanonicalType::kBigInteger), "9223372036854775807");
  ASSERT_TRUE(big.is_string());
  EXPECT_EQ(big, "9223372036854775807");
  // Survives a JSON round trip exactly (the point of BIG* being strings).
  EXPECT_EQ(Json::parse(big.dump()), "9223372036854775807");
}

TEST(WireEncoderTest, DecimalsAreNumbersBigDecimalsKeepTrailingZeros) {
  Json exact = WireEncoder::Encode(ExactNumeric(12, 2), "1234567890.12");
  ASSERT_TRUE(exact.is_number());
  EXPECT_EQ(exact.dump(), "1234567890.12");
  EXPECT_EQ(WireEncoder::Encode(ExactNumeric(18, 2), "12345.60"), "12345.60");
  EXPECT_EQ(WireEncoder::Encode(ExactNumeric(std::nullopt, 0), "-0.000100"), "-0.000100");
  // Non-finite approximate values cannot be JSON numbers: they degrade to text.
  EXPECT_EQ(WireEncoder::Encode(Approximate(15), "NaN"), "NaN");
}

TEST(WireEncoderTest, BooleanForms) {
  auto b = Simple(CanonicalType::kBoolean);
  EXPECT_EQ(WireEncoder::Encode(b, "t"), true);
  EXPECT_EQ(WireEncoder::Encode(b, "f"), false);
  EXPECT_EQ(WireEncoder::Encode(b, "1"), true);
  EXPECT_EQ(WireEncoder::Encode(b, std::string_view("\x01", 1)), true);
  EXPECT_EQ(WireEncoder::Encode(b, std::string_view("\x00", 1)), false);
}

TEST(WireEncoderTest, TimestampsAreUtcWithSixDigitsAndZ) {
  EXPECT_EQ(WireEncoder::NormalizeTimestamp("2026-08-05 19:30:00"), "2026-08-05T19:30:00.000000Z");
  EXPECT_EQ(WireEncoder::NormalizeTimestamp("2026-08-05 14:30:00.123456-05"),
            "2026-08-05T19:30:00.123456Z");
  EXPECT_EQ(WireEncoder::NormalizeTimestamp("2026-08-05T23:30:00.5+05:30"),
            "2026-08-05T18:00:00.500000Z");
  // Crossing midnight and a year boundary.
  EXPECT_EQ(WireEncoder::NormalizeTimestamp("2026-12-31 23:00:00-02"),
            "2027-01-01T01:00:00.000000Z");
  // Sub-microsecond digits are truncated, never rounded up.
  EXPECT_EQ(WireEncoder::NormalizeTimestamp("2026-08-05 19:30:00.1234569Z"),
            "2026-08-05T19:30:00.123456Z");
  EXPECT_EQ(WireEncoder::NormalizeTimestamp("2026-08-05"), "2026-08-05T00:00:00.000000Z");
  EXPECT_FALSE(WireEncoder::NormalizeTimestamp("infinity"));
  EXPECT_FALSE(WireEncoder::NormalizeTimestamp("2026-02-30 00:00:00"));
  // Unparseable values degrade to their text rather than failing the read.
  EXPECT_EQ(WireEncoder::Encode(Simple(CanonicalType::kTimestamp), "infinity"), "infinity");
}

TEST(WireEncoderTest, TimeAndDate) {
  EXPECT_EQ(WireEncoder::NormalizeTime("14:30:00"), "14:30:00.000000");
  EXPECT_EQ(WireEncoder::NormalizeTime("14:30:00.12+05"), "14:30:00.120000");
  EXPECT_EQ(WireEncoder::NormalizeTime("00:00:00"), "00:00:00.000000");
  EXPECT_EQ(WireEncoder::NormalizeDate("2026-08-05"), "2026-08-05");
  EXPECT_FALSE(WireEncoder::NormalizeDate("2026-13-01"));
}

TEST(WireEncoderTest, BinaryIsStandardPaddedBase64) {
  std::string bytes("\xfb\xff\xfe\x00\x01", 5);
  Json wire = WireEncoder::Encode(Simple(CanonicalType::kBinary), bytes);
  std::string text = wire.get<std::string>();
  EXPECT_EQ(text, "+//+AAE=");
  EXPECT_EQ(text.find_first_of("-_\n"), std::string::npos);
  EXPECT_EQ(Base64Decode(text), bytes);
}

}  // namespace
}  // namespace dp
