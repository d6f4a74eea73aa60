#include "datapipelines/connectors/type_mapper.hpp"
#include "datapipelines/connectors/connector_factory.hpp"
#include "datapipelines/connectors/sqlite/sqlite_type_mapper.hpp"

#include <gtest/gtest.h>

#include "datapipelines/connectors/fallback_type_mapper.hpp"

namespace dp {
namespace {

SourceType Named(std::string name) {
  SourceType source;
  source.name = std::move(name);
  source.display = source.name;
  return source;
}

TEST(TypeMapperTest, EveryServedDialectHasARealMapperAndTheRestFallBack) {
  for (Dialect d :
       {Dialect::kPostgres, Dialect::kMysql, Dialect::kSqlite, Dialect::kDuckdb, Dialect::kLake}) {
    EXPECT_FALSE(TypeMapperFor(d).is_fallback()) << ToString(d);
    EXPECT_TRUE(IsDialectServed(d));
  }
  // type-system §5.8: LAKE's engine is DuckDB, so it shares DuckDB's one mapper.
  EXPECT_EQ(&TypeMapperFor(Dialect::kLake), &TypeMapperFor(Dialect::kDuckdb));
  for (Dialect d : {Dialect::kOracle, Dialect::kMssql, Dialect::kH2}) {
    EXPECT_TRUE(TypeMapperFor(d).is_fallback()) << ToString(d);
    EXPECT_FALSE(IsDialectServed(d));
  }
}

TEST(TypeMapperTest, FallbackIsStringWithExactlyOneWarning) {
  TypeMapping m = TypeMapperFor(Dialect::kOracle).Map(Named("SDO_GEOMETRY"), "shape");
  EXPECT_EQ(m.type, CanonicalType::kString);
  ASSERT_TRUE(m.warning);
  EXPECT_EQ(m.warning->code, "type_mapping.unknown_source_type");
  EXPECT_EQ(m.warning->column, "shape");
  EXPECT_EQ(m.warning->source_type, "SDO_GEOMETRY");
}

TEST(TypeMapperTest, PostgresNumerics) {
  const TypeMapper& pg = TypeMapperFor(Dialect::kPostgres);
  SourceType numeric = Named("numeric");
  TypeMapping unbounded = pg.Map(numeric, "n");
  EXPECT_EQ(unbounded.type, CanonicalType::kBigDecimal);
  EXPECT_FALSE(unbounded.precision);
  EXPECT_EQ(unbounded.scale, 0);
  numeric.precision = 15;
  numeric.scale = 2;
  EXPECT_EQ(pg.Map(numeric, "n").type, CanonicalType::kDecimal);
  numeric.precision = 16;
  EXPECT_EQ(pg.Map(numeric, "n").type, CanonicalType::kBigDecimal);
  EXPECT_EQ(pg.Map(numeric, "n").precision, 16);
  numeric.precision = 0;  // defensive: a driver reporting ≤ 0 is unbounded (§4)
  EXPECT_FALSE(pg.Map(numeric, "n").precision);
  TypeMapping money = pg.Map(Named("money"), "m");
  EXPECT_EQ(money.type, CanonicalType::kBigDecimal);
  EXPECT_EQ(money.precision, 19);
  EXPECT_EQ(money.scale, 2);
  TypeMapping real = pg.Map(Named("float4"), "r");
  EXPECT_EQ(real.precision, 7);
  EXPECT_FALSE(real.scale);
  EXPECT_EQ(pg.Map(Named("float8"), "d").precision, 15);
}

TEST(TypeMapperTest, PostgresOtherFamilies) {
  const TypeMapper& pg = TypeMapperFor(Dialect::kPostgres);
  EXPECT_EQ(pg.Map(Named("int8"), "x").type, CanonicalType::kBigInteger);
  EXPECT_EQ(pg.Map(Named("oid"), "x").type, CanonicalType::kBigInteger);
  EXPECT_EQ(pg.Map(Named("timestamptz"), "x").type, CanonicalType::kTimestamp);
  EXPECT_EQ(pg.Map(Named("timetz"), "x").type, CanonicalType::kTime);
  EXPECT_EQ(pg.Map(Named("bytea"), "x").type, CanonicalType::kBinary);
  SourceType array = Named("_int4");
  array.category = 'A';
  EXPECT_EQ(pg.Map(array, "x").type, CanonicalType::kString);
  EXPECT_FALSE(pg.Map(array, "x").warning);
  SourceType vector = Named("vector");
  vector.category = 'U';
  TypeMapping unknown = pg.Map(vector, "embedding");
  EXPECT_EQ(unknown.type, CanonicalType::kString);
  ASSERT_TRUE(unknown.warning);
  EXPECT_NE(unknown.warning->message.find("'vector' on column 'embedding'"), std::string::npos);
}

TEST(TypeMapperTest, MysqlIntegersBooleansAndBinary) {
  const TypeMapper& my = TypeMapperFor(Dialect::kMysql);
  SourceType tiny = Named("tinyint");
  tiny.length = 1;
  EXPECT_EQ(my.Map(tiny, "x").type, CanonicalType::kBoolean);
  tiny.length = 4;
  EXPECT_EQ(my.Map(tiny, "x").type, CanonicalType::kInteger);
  SourceType uint = Named("int");
  uint.is_unsigned = true;
  EXPECT_EQ(my.Map(uint, "x").type, CanonicalType::kBigInteger);
  SourceType ubig = Named("bigint");
  ubig.is_unsigned = true;
  EXPECT_EQ(my.Map(ubig, "x").type, CanonicalType::kBigDecimal);
  EXPECT_EQ(my.Map(ubig, "x").precision, 20);
  SourceType bit = Named("bit");
  bit.length = 8;
  EXPECT_EQ(my.Map(bit, "x").type, CanonicalType::kBinary);
  bit.length = 1;
  EXPECT_EQ(my.Map(bit, "x").type, CanonicalType::kBoolean);
  SourceType blob = Named("text");
  blob.is_binary = true;
  EXPECT_EQ(my.Map(blob, "x").type, CanonicalType::kBinary);
  EXPECT_EQ(my.Map(Named("year"), "x").type, CanonicalType::kInteger);
  EXPECT_EQ(my.Map(Named("float"), "x").precision, 7);
  EXPECT_EQ(my.Map(Named("double"), "x").precision, 15);
}

TEST(TypeMapperTest, SqliteAffinities) {
  const TypeMapper& lite = TypeMapperFor(Dialect::kSqlite);
  // A 64-bit declaration takes BIGINTEGER, with the warning saying why (docs/types.md).
  TypeMapping big = lite.Map(Named("BIGINT"), "x");
  EXPECT_EQ(big.type, CanonicalType::kBigInteger);
  ASSERT_TRUE(big.warning);
  EXPECT_EQ(big.warning->code, SqliteTypeMapper::kDeclaredTypeWarning);
  EXPECT_EQ(lite.Map(Named("INTEGER"), "x").type, CanonicalType::kInteger);
  EXPECT_FALSE(lite.Map(Named("INTEGER"), "x").warning);
  EXPECT_EQ(lite.Map(Named("VARCHAR(10)"), "x").type, CanonicalType::kString);
  EXPECT_EQ(lite.Map(Named("BLOB"), "x").type, CanonicalType::kBinary);
  EXPECT_EQ(lite.Map(Named(""), "x").type, CanonicalType::kString);
  TypeMapping real = lite.Map(Named("DOUBLE PRECISION"), "x");
  EXPECT_EQ(real.type, CanonicalType::kDecimal);
  EXPECT_EQ(real.precision, 15);
  EXPECT_FALSE(real.scale);
  EXPECT_EQ(lite.Map(Named("DECIMAL(10,2)"), "x").precision, 15);
  EXPECT_TRUE(lite.Map(Named("DECIMAL(10,2)"), "x").warning);
  EXPECT_FALSE(lite.Map(Named("NUMERIC"), "x").warning);
  EXPECT_EQ(lite.Map(Named("DATETIME"), "x").type, CanonicalType::kString);
  EXPECT_TRUE(lite.Map(Named("DATETIME"), "x").warning);
  // "POINT" contains INT: SQLite's own rule gives INTEGER affinity.
  EXPECT_EQ(lite.Map(Named("POINT"), "x").type, CanonicalType::kInteger);
}

TEST(TypeMapperTest, SqliteStagedColumnsKeepTheirSourceWarning) {
  const TypeMapper& lite = TypeMapperFor(Dialect::kSqlite);
  TypeMapping source = lite.Map(Named("DECIMAL(10,2)"), "fare");
  ASSERT_TRUE(source.warning);
  // tempdb writes "DP_DECIMAL_REAL DP_WARN_<hex>(15)": reading it back gives the mapping
  // and the warning, renamed to the column it is read as.
  std::string staged =
      "DP_DECIMAL_REAL" + SqliteTypeMapper::StagedWarningWord(*source.warning) + "(15)";
  TypeMapping back = lite.Map(Named(staged), "total_fare");
  EXPECT_EQ(back.type, CanonicalType::kDecimal);
  EXPECT_EQ(back.precision, 15);
  ASSERT_TRUE(back.warning);
  EXPECT_EQ(back.warning->message, source.warning->message);
  EXPECT_EQ(back.warning->column, "total_fare");
  EXPECT_EQ(SqliteTypeMapper::ShownDeclaredType(staged), "DP_DECIMAL_REAL(15)");
  TypeMapping text =
      lite.Map(Named("TEXT" + SqliteTypeMapper::StagedWarningWord(*source.warning)), "d");
  EXPECT_EQ(text.type, CanonicalType::kString);
  EXPECT_TRUE(text.warning);
}

}  // namespace
}  // namespace dp
