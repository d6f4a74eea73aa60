#include <gtest/gtest.h>

#include "datapipelines/connectors/bind_value.hpp"
#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/connectors/connector_config.hpp"
#include "datapipelines/connectors/schema_envelope.hpp"
#include "datapipelines/connectors/type_mapper.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

TEST(BindValueTest, TypedTextForms) {
  EXPECT_EQ((BindValue{CanonicalType::kInteger, 42}.DriverText("n")), "42");
  EXPECT_EQ((BindValue{CanonicalType::kBigInteger, "9223372036854775807"}.DriverText("n")),
            "9223372036854775807");
  EXPECT_EQ((BindValue{CanonicalType::kBigDecimal, "12.50"}.DriverText("n")), "12.50");
  EXPECT_EQ((BindValue{CanonicalType::kBoolean, true}.DriverText("b")), "true");
  EXPECT_EQ((BindValue{CanonicalType::kBinary, "AAE="}.DriverText("b")), std::string("\0\x01", 2));
  EXPECT_EQ((BindValue{CanonicalType::kTimestamp, "2026-08-05T14:30:00-05:00"}.DriverText("t")),
            "2026-08-05 19:30:00.000000");
  EXPECT_FALSE((BindValue{CanonicalType::kString, nullptr}.DriverText("s")));
  EXPECT_EQ((BindValue{CanonicalType::kDecimal, 0.1}.DriverText("d")), "0.1");
  EXPECT_EQ((BindValue{CanonicalType::kInteger, "-2147483648"}.DriverText("n")), "-2147483648");
}

TEST(BindValueTest, MistypedValuesAreRefusedWithoutEchoingThem) {
  auto expect_refused = [](BindValue bind) {
    try {
      bind.DriverText("p");
      FAIL() << "accepted";
    } catch (const DomainError& error) {
      EXPECT_EQ(error.code(), errc::kRequestInvalid);
      EXPECT_EQ(std::string(error.what()).find("secret-ish"), std::string::npos);
    }
  };
  expect_refused({CanonicalType::kInteger, "1; DROP TABLE x secret-ish"});
  expect_refused({CanonicalType::kDecimal, "1e5 secret-ish"});
  expect_refused({CanonicalType::kDate, "secret-ish"});
  expect_refused({CanonicalType::kBoolean, "yes secret-ish"});
  expect_refused({CanonicalType::kBoolean, 1});
  // The wire strings the type system defines are BOOLEAN values (sql_probe sends strings).
  EXPECT_EQ((BindValue{CanonicalType::kBoolean, "true"}.DriverText("b")), "true");
  EXPECT_EQ((BindValue{CanonicalType::kBoolean, "false"}.DriverText("b")), "false");
  expect_refused({CanonicalType::kInteger, 3000000000LL});  // INTEGER is int32
  expect_refused({CanonicalType::kBigInteger, 18446744073709551615ULL});
  expect_refused({CanonicalType::kBinary, "not base64 secret-ish"});
}

TEST(SchemaEnvelopeTest, DescriptorsFollowSection7) {
  std::vector<ColumnSchema> columns(4);
  columns[0].name = "id";
  columns[0].mapping = Simple(CanonicalType::kInteger);
  columns[0].nullable = false;
  columns[1].name = "total";
  columns[1].mapping = ExactNumeric(std::nullopt, 0);
  columns[2].name = "measure";
  columns[2].mapping = Approximate(15);
  columns[3].name = "weird";
  SourceType vec;
  vec.name = "vector";
  columns[3].mapping = UnknownSourceType(vec, "weird");
  Json envelope = SchemaEnvelope::Build(columns);
  EXPECT_EQ(envelope["schema_version"], 1);
  EXPECT_EQ(envelope["schema"][0],
            (Json{{"name", "id"}, {"type", "INTEGER"}, {"nullable", false}}));
  EXPECT_EQ(envelope["schema"][1], (Json{{"name", "total"}, {"type", "BIGDECIMAL"}, {"scale", 0}}));
  EXPECT_EQ(envelope["schema"][2],
            (Json{{"name", "measure"}, {"type", "DECIMAL"}, {"precision", 15}}));
  ASSERT_EQ(envelope["warnings"].size(), 1u);
  EXPECT_EQ(envelope["warnings"][0]["code"], "type_mapping.unknown_source_type");
  EXPECT_EQ(envelope["warnings"][0]["column"], "weird");
}

TEST(ConnectorConfigTest, ParsesUrlsAndNeverDescribesThePassword) {
  auto pg =
      ConnectorConfig::FromUrl("postgresql://app:p%40ss@db.internal:6543/sales?sslmode=require");
  EXPECT_EQ(pg.dialect, Dialect::kPostgres);
  EXPECT_EQ(pg.username, "app");
  EXPECT_EQ(pg.password, "p@ss");
  EXPECT_EQ(pg.host, "db.internal");
  EXPECT_EQ(pg.port, 6543);
  EXPECT_EQ(pg.database, "sales");
  EXPECT_EQ(pg.options.at("sslmode"), "require");
  EXPECT_EQ(pg.Describe().find("p@ss"), std::string::npos);
  auto my = ConnectorConfig::FromUrl("mysql://u:pw@127.0.0.1/db");
  EXPECT_EQ(my.dialect, Dialect::kMysql);
  EXPECT_EQ(my.port, 3306);
  auto lite = ConnectorConfig::FromUrl("sqlite:///tmp/x.db");
  EXPECT_EQ(lite.sqlite_path, "/tmp/x.db");
  try {
    ConnectorConfig::FromUrl("oracle://u:topsecret@h/db");
    FAIL();
  } catch (const DomainError& error) {
    EXPECT_EQ(error.code(), errc::kDatasourceUrlMalformed);
    EXPECT_EQ(std::string(error.what()).find("topsecret"), std::string::npos);
  }
}

TEST(ConnectorFactoryTest, UnservedDialectsAreRefusedAtCreation) {
  for (Dialect d : {Dialect::kOracle, Dialect::kMssql, Dialect::kH2}) {
    ConnectorConfig config;
    config.dialect = d;
    try {
      MakeConnector(config);
      FAIL() << ToString(d);
    } catch (const DomainError& error) {
      EXPECT_EQ(error.code(), errc::kDatasourceDriverNotLoaded);
      EXPECT_NE(std::string(error.what()).find(ToString(d)), std::string::npos);
    }
  }
  EXPECT_EQ(ParseDialect("POSTGRES"), Dialect::kPostgres);
  EXPECT_FALSE(ParseDialect("postgres"));
  EXPECT_EQ(ParseDialectOrThrow("SQLITE"), Dialect::kSqlite);
  try {
    ParseDialectOrThrow("SNOWFLAKE");
    FAIL();
  } catch (const DomainError& error) {
    EXPECT_EQ(error.code(), errc::kDatasourceDialectInvalid);
  }
}

TEST(ConnectorQuotingTest, QuotesPerDialectAndRefusesNul) {
  ConnectorConfig lite;
  lite.dialect = Dialect::kSqlite;
  lite.sqlite_path = ":memory:";
  auto sqlite = MakeConnector(lite);
  EXPECT_EQ(sqlite->QuoteIdentifier("we\"ird"), "\"we\"\"ird\"");
  EXPECT_EQ(sqlite->QuoteQualified({"s", "t"}), "\"s\".\"t\"");
  EXPECT_EQ(sqlite->LimitClause(5), " LIMIT 5");
  EXPECT_THROW(sqlite->QuoteIdentifier(std::string("a\0b", 3)), DomainError);
  EXPECT_THROW(sqlite->QuoteIdentifier(""), DomainError);
  ConnectorConfig my;
  my.dialect = Dialect::kMysql;
  my.host = "127.0.0.1";
  auto mysql = MakeConnector(my);  // no connection is opened until a lease
  EXPECT_EQ(mysql->QuoteIdentifier("a`b"), "`a``b`");
  EXPECT_TRUE(mysql->schema_arrives_in_catalog());
}

TEST(ErrorCodesTest, ConnectorCodesAreRegistered) {
  auto all = errc::All();
  for (const auto& code :
       {errc::kDatasourceUnreachable, errc::kDatasourceTableForbidden, errc::kNodeQueryFailed,
        errc::kNodeConnectionFailed, errc::kDatasourceDriverNotLoaded}) {
    EXPECT_NE(std::find(all.begin(), all.end(), code), all.end()) << code.code;
  }
}

}  // namespace
}  // namespace dp

namespace dp {
namespace {

TEST(PoolSettingsTest, HikariMapAppliesAndRefusesServerManagedOrUnknownKeys) {
  PoolSettings settings = PoolSettings::FromHikari(Json{{"maximumPoolSize", 4},
                                                        {"minimumIdle", 1},
                                                        {"connectionTimeout", 1500},
                                                        {"connectionTestQuery", "SELECT 1"},
                                                        {"leakDetectionThreshold", 0}});
  EXPECT_EQ(settings.max_size, 4);
  EXPECT_EQ(settings.min_idle, 1);
  EXPECT_EQ(settings.acquire_timeout_ms, 1500);
  EXPECT_EQ(settings.validation_query, "SELECT 1");
  EXPECT_EQ(settings.ToHikari()["maximumPoolSize"], 4);
  for (const Json& bad :
       {Json{{"password", "x"}}, Json{{"jdbcUrl", "jdbc:x"}}, Json{{"maximumPoolSiz", 3}},
        Json{{"maximumPoolSize", "ten"}}, Json{{"maximumPoolSize", 0}},
        Json{{"exceptionOverrideClassName", "X"}}}) {
    try {
      PoolSettings::FromHikari(bad);
      FAIL() << bad.dump();
    } catch (const DomainError& error) {
      EXPECT_EQ(error.code(), errc::kDatasourcePropertiesInvalid);
      EXPECT_EQ(error.details()["key"], "hikari." + bad.begin().key());
    }
  }
}

}  // namespace
}  // namespace dp
