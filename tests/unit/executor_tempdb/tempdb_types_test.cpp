// Canonical type → staged → read back: the value (wire and, for exact types, the driver text)
// and the column's canonical type, precision and scale come back identical.
#include <gtest/gtest.h>

#include "datapipelines/connectors/wire/wire_encoder.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "tempdb_test_support.hpp"

namespace dp {
namespace {

using namespace tempdb_test;

TypeMapping Decimal(std::optional<int> precision, std::optional<int> scale,
                    CanonicalType type = CanonicalType::kDecimal) {
  return TypeMapping{type, precision, scale, std::nullopt};
}

struct RoundTripCase {
  std::string label;
  TypeMapping mapping;
  std::optional<std::string> source;  // the connector's cell text (nullopt = NULL)
  Json wire;                          // what a client receives
  // The read-back driver text when it must be byte-identical to the source.
  bool text_identical = false;
};

std::vector<RoundTripCase> Cases() {
  const TypeMapping kBool = Simple(CanonicalType::kBoolean);
  const TypeMapping kInt = Simple(CanonicalType::kInteger);
  const TypeMapping kBigInt = Simple(CanonicalType::kBigInteger);
  const TypeMapping kString = Simple(CanonicalType::kString);
  const TypeMapping kBinary = Simple(CanonicalType::kBinary);
  const TypeMapping kDate = Simple(CanonicalType::kDate);
  const TypeMapping kTime = Simple(CanonicalType::kTime);
  const TypeMapping kTimestamp = Simple(CanonicalType::kTimestamp);
  const TypeMapping kBig38 = Decimal(38, 10, CanonicalType::kBigDecimal);
  const TypeMapping kBigUnsized = Decimal(std::nullopt, std::nullopt, CanonicalType::kBigDecimal);
  return {
      {"bool_pg_t", kBool, "t", true},
      {"bool_pg_f", kBool, "f", false},
      {"bool_true", kBool, "true", true},
      {"bool_bit1", kBool, std::string("\x01", 1), true},
      {"bool_null", kBool, std::nullopt, nullptr},
      {"int", kInt, "42", 42, true},
      {"int_negative", kInt, "-2147483648", -2147483648LL, true},
      {"int_wide", kInt, "9007199254740993", 9007199254740993LL, true},
      {"bigint_max", kBigInt, "9223372036854775807", "9223372036854775807", true},
      {"bigint_min", kBigInt, "-9223372036854775808", "-9223372036854775808", true},
      {"bigint_beyond_int64", kBigInt, "18446744073709551615", "18446744073709551615", true},
      {"bigint_null", kBigInt, std::nullopt, nullptr},
      {"decimal_exact", Decimal(15, 2), "12.50", 12.5},
      {"decimal_15_digits", Decimal(15, 2), "9999999999999.99", 9999999999999.99},
      {"decimal_negative", Decimal(10, 4), "-0.0001", -0.0001},
      {"decimal_approx", Decimal(7, std::nullopt), "3.25", 3.25},
      {"decimal_double", Decimal(15, std::nullopt), "1e+300", 1e300},
      {"bigdecimal_38_10", kBig38, "12345678901234567890.1234567890",
       "12345678901234567890.1234567890", true},
      {"bigdecimal_trailing_zeros", kBig38, "12345.6000000000", "12345.6000000000", true},
      {"bigdecimal_unsized", kBigUnsized, "1.000000000000000000001", "1.000000000000000000001",
       true},
      {"bigdecimal_20_0", Decimal(20, 0, CanonicalType::kBigDecimal), "18446744073709551615",
       "18446744073709551615", true},
      {"string_leading_zero", kString, "0123", "0123", true},
      {"string_numeric_looking", kString, "1e5", "1e5", true},
      {"string_empty", kString, "", "", true},
      {"string_unicode", kString, "żółw 🐢", "żółw 🐢", true},
      {"string_null", kString, std::nullopt, nullptr},
      {"binary", kBinary, std::string("\x00\x01\xff", 3), "AAH/", true},
      {"binary_empty", kBinary, "", "", true},
      {"date", kDate, "2024-02-29", "2024-02-29", true},
      {"time", kTime, "14:30:00", "14:30:00.000000"},
      {"time_truncated", kTime, "14:30:00.123456789", "14:30:00.123456"},
      {"timestamp_offset", kTimestamp, "2024-01-05 10:00:00+02", "2024-01-05T08:00:00.000000Z"},
      {"timestamp_canonical", kTimestamp, "2024-01-05T08:00:00.250000Z",
       "2024-01-05T08:00:00.250000Z", true},
      {"null_column", Simple(CanonicalType::kNull), std::nullopt, nullptr},
  };
}

// Every case on both engines: the staged type mapping is the same contract on SQLite and
// DuckDB. DuckDB spells temporal values its own way, so for those only the wire (what a client
// receives) is compared byte for byte, never the driver text.
// DuckDB has no type to carry these two labels: NULL-typed and unbounded BIGDECIMAL columns
// are staged as VARCHAR and read back as STRING, with the same wire values.
bool StagedAsString(const TypeMapping& mapping) {
  return mapping.type == CanonicalType::kNull ||
         (mapping.type == CanonicalType::kBigDecimal && !mapping.precision);
}

class TempdbRoundTripTest
    : public ::testing::TestWithParam<std::tuple<RoundTripCase, TempdbEngine>> {};

TEST_P(TempdbRoundTripTest, ValueAndTypeComeBackIdentical) {
  const RoundTripCase& c = std::get<0>(GetParam());
  TempdbEngine engine = std::get<1>(GetParam());
  Tempdb db(TempdbOptions{.engine = engine});
  std::vector<ColumnSchema> columns{Column("v", c.mapping)};
  ASSERT_EQ(Stage(db, "t", columns, {{c.source}}), 1);

  ReadBack back = Read(db, "SELECT v FROM t");
  ASSERT_EQ(back.columns.size(), 1u);
  const TypeMapping& read = back.columns[0].mapping;
  TypeMapping want = c.mapping;
  if (engine == TempdbEngine::kDuckdb && StagedAsString(c.mapping))
    want = Simple(CanonicalType::kString);
  EXPECT_EQ(read.type, want.type);
  EXPECT_EQ(read.precision, want.precision);
  EXPECT_EQ(read.scale, want.scale);
  ASSERT_EQ(back.wire.size(), 1u);
  EXPECT_EQ(back.wire[0][0], c.wire);
  // Exactly what the same cell gives read straight from its source.
  EXPECT_EQ(back.wire[0][0], WireEncoder::Encode(c.mapping, c.source));
  bool temporal = c.mapping.type == CanonicalType::kDate ||
                  c.mapping.type == CanonicalType::kTime ||
                  c.mapping.type == CanonicalType::kTimestamp;
  if (c.text_identical && !(engine == TempdbEngine::kDuckdb && temporal)) {
    EXPECT_EQ(back.text[0][0], c.source);
  }
}

INSTANTIATE_TEST_SUITE_P(CanonicalTypes, TempdbRoundTripTest,
                         ::testing::Combine(::testing::ValuesIn(Cases()),
                                            ::testing::Values(TempdbEngine::kSqlite,
                                                              TempdbEngine::kDuckdb)),
                         [](const auto& info) {
                           return std::get<0>(info.param).label +
                                  (std::get<1>(info.param) == TempdbEngine::kSqlite ? "_sqlite"
                                                                                    : "_duckdb");
                         });

TEST(TempdbTypesTest, AllTypesInOneTableKeepTheirSchema) {
  for (TempdbEngine engine : {TempdbEngine::kSqlite, TempdbEngine::kDuckdb}) {
    SCOPED_TRACE(engine == TempdbEngine::kSqlite ? "sqlite" : "duckdb");
    Tempdb db(TempdbOptions{.engine = engine});
    std::vector<ColumnSchema> columns;
    std::vector<std::optional<std::string>> row;
    int i = 0;
    for (const auto& c : Cases()) {
      columns.push_back(Column("c" + std::to_string(i++), c.mapping));
      row.push_back(c.source);
    }
    Stage(db, "wide", columns, {row, Cells(row.size())});
    ReadBack back = Read(db, "SELECT * FROM wide");
    ASSERT_EQ(back.columns.size(), columns.size());
    for (std::size_t k = 0; k < columns.size(); ++k) {
      ColumnSchema want = columns[k];
      if (engine == TempdbEngine::kDuckdb && StagedAsString(want.mapping)) {
        want.mapping = Simple(CanonicalType::kString);
      }
      EXPECT_EQ(back.columns[k].ToDescriptor(), want.ToDescriptor()) << columns[k].name;
      EXPECT_EQ(back.wire[0][k], WireEncoder::Encode(columns[k].mapping, row[k])) << k;
      EXPECT_TRUE(back.wire[1][k].is_null()) << k;
    }
  }
}

TEST(TempdbTypesTest, StagedColumnsCompareAndSortByTheirType) {
  Tempdb db;
  std::vector<ColumnSchema> columns{
      Column("id", CanonicalType::kBigInteger), Column("amount", Decimal(10, 2)),
      Column("code", CanonicalType::kString), Column("flag", CanonicalType::kBoolean),
      Column("day", CanonicalType::kDate)};
  Stage(db, "orders", columns,
        {{"10", "99.50", "007", "t", "2024-03-01"},
         {"9", "100.25", "7", "f", "2024-02-01"},
         {"100", "5.00", "0123", "t", "2023-12-31"}});
  // Numeric, not lexicographic: 99.50 < 100 and id 9 < 10 < 100.
  EXPECT_EQ(Read(db, "SELECT id FROM orders WHERE amount > 99.9 ORDER BY id").text,
            (std::vector<Cells>{{"9"}}));
  EXPECT_EQ(Read(db, "SELECT id FROM orders ORDER BY id").text,
            (std::vector<Cells>{{"9"}, {"10"}, {"100"}}));
  // STRING never coerced: '007' is not 7.
  EXPECT_EQ(Read(db, "SELECT code FROM orders WHERE code = '7'").text, (std::vector<Cells>{{"7"}}));
  EXPECT_EQ(Read(db, "SELECT count(*) FROM orders WHERE flag").text, (std::vector<Cells>{{"2"}}));
  EXPECT_EQ(Read(db, "SELECT id FROM orders WHERE day >= '2024-01-01' ORDER BY day").text,
            (std::vector<Cells>{{"9"}, {"10"}}));
  // Computed expressions fall back to what SQLite reports.
  ReadBack sum = Read(db, "SELECT sum(id) AS total FROM orders");
  EXPECT_EQ(sum.columns[0].mapping.type, CanonicalType::kInteger);
  EXPECT_EQ(sum.wire[0][0], 119);
}

TEST(TempdbTypesTest, IntegerBeyondInt64IsAValueOverflow) {
  for (TempdbEngine engine : {TempdbEngine::kSqlite, TempdbEngine::kDuckdb}) {
    SCOPED_TRACE(engine == TempdbEngine::kSqlite ? "sqlite" : "duckdb");
    Tempdb db(TempdbOptions{.engine = engine});
    std::vector<ColumnSchema> columns{Column("n", CanonicalType::kInteger)};
    auto writer = db.CreateTable("t", columns);
    DomainError error = Refusal([&] { AppendRows(writer, columns, {{"99999999999999999999"}}); });
    EXPECT_EQ(error.code(), errc::kStagingValueOverflow);
    EXPECT_EQ(error.details()["table"], "t");
    EXPECT_EQ(error.details()["column"], "n");
    EXPECT_EQ(std::string(error.what()).find("9999"), std::string::npos) << "never the value";
  }
}

TEST(TempdbTypesTest, PrecisionBeyondTheCeilingIsRefused) {
  Tempdb db;
  DomainError declared = Refusal(
      [&] { db.CreateTable("t", {Column("d", Decimal(100001, 2, CanonicalType::kBigDecimal))}); });
  EXPECT_EQ(declared.code(), errc::kStagingPrecisionOverflow);
  EXPECT_FALSE(db.HasTable("t"));

  std::vector<ColumnSchema> columns{
      Column("d", Decimal(std::nullopt, std::nullopt, CanonicalType::kBigDecimal))};
  auto writer = db.CreateTable("u", columns);
  std::string huge(100001, '7');
  EXPECT_EQ(Refusal([&] { AppendRows(writer, columns, {{huge}}); }).code(),
            errc::kStagingPrecisionOverflow);
}

}  // namespace
}  // namespace dp
