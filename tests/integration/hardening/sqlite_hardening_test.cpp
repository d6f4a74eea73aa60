// Issue 9, SQLite memory corruption: every primitive of tests/hardening_cases/
// sqlite_primitives.json against every kind of handle we open over author SQL — sql_probe on
// a writable SQLite datasource whose file holds an FTS4 table, the probe's tempdb scratch,
// the datasource pool the executor reads through, and an execution's tempdb — plus the
// handle-level settings of every role (the embedded metadata store's included).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/connectors/sqlite/sqlite_hardening.hpp"
#include "datapipelines/executor/tempdb.hpp"
#include "integration/datasources/datasource_harness.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

struct SqlitePrimitiveCase {
  std::string name;
  Json spec;
};

std::vector<SqlitePrimitiveCase> LoadSqliteCases() {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/hardening_cases/sqlite_primitives.json");
  std::vector<SqlitePrimitiveCase> cases;
  for (auto& spec : Json::parse(in)) cases.push_back({spec["name"].get<std::string>(), spec});
  return cases;
}

Json Rows(Connection& conn, const std::string& sql) {
  Json rows = Json::array();
  QueryOptions options;
  options.max_rows = 100;
  conn.Query(sql, {}, options, [&](const RowView& row) {
    rows.push_back(row.ToWireObject());
    return true;
  });
  return rows;
}

class SqlitePrimitives : public ::testing::TestWithParam<SqlitePrimitiveCase> {
 protected:
  void SetUp() override {
    path_ = fs::temp_directory_path() / ("dp_harden_" + Pid() + "_" + RandomBase32(6) + ".db");
    admin_ = MakeConnector(ConnectorConfig::FromUrl("sqlite:" + path_.string()));
    auto conn = admin_->Open();
    conn->Execute("CREATE VIRTUAL TABLE docs USING fts4(body)");
    conn->Execute("INSERT INTO docs(body) VALUES ('hello world'), ('goodbye moon')");
    conn->Execute("CREATE TABLE plain (id INTEGER PRIMARY KEY, v TEXT)");
    conn->Execute("INSERT INTO plain VALUES (1, 'a')");
    Json body{{"name", "harden-sqlite"}, {"display_name", "Hardening"},
              {"dialect", "SQLITE"},     {"jdbc_url", "jdbc:sqlite:" + path_.string()},
              {"username", ""},          {"password", "sqlite-unused-secret"},
              {"workspace", "alpha"}};
    h_.service().Create(AdminSession("ws-a"), body);
  }
  void TearDown() override {
    admin_.reset();
    fs::remove(path_);
  }

  // The case's statement on its handle: the rows, or nullopt when refused.
  std::optional<Json> Run(const std::string& handle, const std::string& sql) {
    try {
      if (handle == "probe" || handle == "probe_tempdb") {
        Json probe = h_.explorer().Probe(
            Key("ws-a"),
            ProbeRequest::FromJson(
                {{"name", handle == "probe" ? "harden-sqlite" : "tempdb"}, {"sql", sql}}));
        if (probe.value("validation_status", std::string("executed")) != "executed") {
          return std::nullopt;
        }
        return probe["rows"];
      }
      if (handle == "datasource") {
        auto target = h_.service().ResolveForExecution("ws-a", "harden-sqlite");
        auto lease = target.connector->Acquire();
        return Rows(*lease, sql);
      }
      Tempdb tempdb;
      Json rows;
      tempdb.WithSession([&](Connection& conn) { rows = Rows(conn, sql); });
      return rows;
    } catch (const DomainError& refusal) {
      refusals_.push_back(refusal.what());
      return std::nullopt;
    }
  }

  ServiceHarness h_;
  fs::path path_;
  std::unique_ptr<Connector> admin_;
  std::vector<std::string> refusals_;
};

TEST_P(SqlitePrimitives, Holds) {
  const Json& spec = GetParam().spec;
  std::optional<Json> rows = Run(spec["handle"].get<std::string>(), spec["sql"].get<std::string>());
  if (spec.value("refused", false)) {
    EXPECT_FALSE(rows.has_value()) << "ran: " << (rows ? rows->dump() : "");
  } else {
    ASSERT_TRUE(rows.has_value()) << (refusals_.empty() ? "" : refusals_.back());
    if (spec.contains("rows")) {
      EXPECT_EQ(*rows, spec["rows"]);
    }
  }
  if (spec.contains("after")) {
    auto conn = admin_->Open();
    const std::string after = spec["after"].get<std::string>();
    EXPECT_EQ(Rows(*conn, after), spec["after_rows"]) << after;
  }
}

INSTANTIATE_TEST_SUITE_P(Handles, SqlitePrimitives, ::testing::ValuesIn(LoadSqliteCases()),
                         [](const auto& info) {
                           std::string name;
                           for (char c : info.param.name)
                             name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

// The settings themselves, on a raw handle of each role (the metadata store's included).
TEST(SqliteHardening, EveryRoleGetsTheSettings) {
  for (SqliteRole role :
       {SqliteRole::kMetadata, SqliteRole::kDatasource, SqliteRole::kProbe, SqliteRole::kTempdb}) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
    SqliteHardening::Harden(db, role);
    int value = -1;
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, -1, &value);
    EXPECT_EQ(value, 0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, -1, &value);
    EXPECT_EQ(value, 1);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, -1, &value);
    EXPECT_EQ(value, 0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, -1, &value);
    EXPECT_EQ(value, 0);
    EXPECT_EQ(sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, -1), 0);
    for (const char* sql : {"SELECT fts3_tokenizer('simple')", "ATTACH ':memory:' AS x",
                            "SELECT load_extension('x')"}) {
      sqlite3_stmt* stmt = nullptr;
      EXPECT_NE(sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr), SQLITE_OK) << sql;
      sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
  }
}

}  // namespace
}  // namespace dp
