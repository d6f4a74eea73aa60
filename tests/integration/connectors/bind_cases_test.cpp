// Data-driven typed binds against values stored the way the engine's users store them:
// tests/connector_cases/binds/<dialect>.json, each case a statement, its binds and the ids
// it must return (or the refusal it must raise) — boundary rows included.
#include <fstream>

#include "connector_test_support.hpp"
#include "datapipelines/connectors/query_options.hpp"

namespace dp::test {
namespace {

Json LoadBindCases(const std::string& file) {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/connector_cases/binds/" + file);
  EXPECT_TRUE(in.good()) << file;
  return Json::parse(in);
}

BindMap Binds(const Json& spec) {
  BindMap binds;
  for (const auto& [name, typed] : spec.items()) {
    auto type = ParseCanonicalType(typed[0].get<std::string>());
    EXPECT_TRUE(type) << name;
    binds[name] = BindValue{*type, typed[1]};
  }
  return binds;
}

void RunBindCases(Connector& connector, const std::string& file) {
  Json doc = LoadBindCases(file);
  auto lease = connector.Acquire();
  for (const auto& statement : doc["setup"]) lease->Execute(statement.get<std::string>());
  for (const auto& c : doc["cases"]) {
    std::string where = file + ": " + c["name"].get<std::string>();
    Json ids = Json::array();
    auto run = [&] {
      lease->Query(c["sql"].get<std::string>(), Binds(c["binds"]), QueryOptions{},
                   [&](const RowView& row) {
                     ids.push_back(row.Wire(0));
                     return true;
                   });
    };
    if (c.contains("error")) {
      auto error = CatchDomainError(run);
      ASSERT_TRUE(error) << where;
      EXPECT_EQ(std::string(error->code().code), c["error"].get<std::string>()) << where;
      EXPECT_NE(std::string(error->what()).find(c["message_contains"].get<std::string>()),
                std::string::npos)
          << where << ": " << error->what();
      continue;
    }
    run();
    EXPECT_EQ(ids, c["ids"]) << where;
  }
}

TEST_F(SqliteConnectorTest, BindCases) { RunBindCases(*connector_, "sqlite.json"); }

}  // namespace
}  // namespace dp::test
