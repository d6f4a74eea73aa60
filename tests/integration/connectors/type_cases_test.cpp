// Data-driven type round trips: tests/connector_cases/types/<dialect>.json, each case a
// source column DDL → canonical type → SQL literal → wire value, checked on the real engine
// through both the result metadata and the catalog (columns) path.
#include <fstream>

#include "connector_test_support.hpp"
#include "datapipelines/connectors/query_options.hpp"

namespace dp::test {
namespace {

Json LoadCases(const std::string& file) {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/connector_cases/types/" + file);
  EXPECT_TRUE(in.good()) << file;
  return Json::parse(in);
}

void ExpectMapping(const Json& expected, const TypeMapping& mapping, const std::string& where) {
  EXPECT_EQ(ToString(mapping.type), expected["type"].get<std::string>()) << where;
  std::optional<int> precision, scale;
  if (expected.contains("precision")) precision = expected["precision"].get<int>();
  if (expected.contains("scale")) scale = expected["scale"].get<int>();
  EXPECT_EQ(mapping.precision, precision) << where << " precision";
  EXPECT_EQ(mapping.scale, scale) << where << " scale";
  if (expected.contains("warning")) {
    ASSERT_TRUE(mapping.warning) << where;
    EXPECT_EQ(mapping.warning->code, expected["warning"].get<std::string>()) << where;
  } else {
    EXPECT_FALSE(mapping.warning) << where << ": " << mapping.warning->message;
  }
}

void RunCases(Connector& connector, const std::string& file) {
  Json doc = LoadCases(file);
  const Json& cases = doc["cases"];
  auto lease = connector.Acquire();
  for (const auto& statement : doc["setup"]) lease->Execute(statement.get<std::string>());
  std::string create = "CREATE TABLE dp_type_cases (";
  std::string insert = "INSERT INTO dp_type_cases VALUES (";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::string sep = i ? ", " : "";
    create += sep + "c" + std::to_string(i) + " " + cases[i]["ddl"].get<std::string>();
    insert += sep + cases[i]["literal"].get<std::string>();
  }
  lease->Execute(create + ")");
  lease->Execute(insert + ")");

  Json row;
  QueryResult result =
      lease->Query("SELECT * FROM dp_type_cases", {}, QueryOptions{}, [&](const RowView& view) {
        row = view.ToWireArray();
        return true;
      });
  ASSERT_EQ(result.row_count, 1);
  ASSERT_EQ(result.columns.size(), cases.size());
  std::vector<ColumnSchema> catalog =
      lease->ListColumns(std::nullopt, "dp_type_cases", IntrospectionOptions{});
  ASSERT_EQ(catalog.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Json& expected = cases[i];
    std::string where =
        file + " case " + std::to_string(i) + " (" + expected["ddl"].get<std::string>() + ")";
    ExpectMapping(expected, result.columns[i].mapping, where + " [result]");
    ExpectMapping(expected, catalog[i].mapping, where + " [catalog]");
    EXPECT_EQ(row[i], expected["wire"]) << where << " wire " << row[i].dump();
  }
  lease->Execute("DROP TABLE dp_type_cases");
}

TEST_F(PostgresConnectorTest, TypeCases) { RunCases(*connector_, "postgres.json"); }
TEST_F(MysqlConnectorTest, TypeCases) { RunCases(*connector_, "mysql.json"); }
TEST_F(SqliteConnectorTest, TypeCases) { RunCases(*connector_, "sqlite.json"); }
TEST_F(DuckdbConnectorTest, TypeCases) { RunCases(*connector_, "duckdb.json"); }

}  // namespace
}  // namespace dp::test
