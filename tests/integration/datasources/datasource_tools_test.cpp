// The datasource registry and the nine datasource operations (MCP spec §6.2.10–12,
// §6.2.16–19, §6.2.33–34) through DatasourceService against real PostgreSQL, MariaDB and
// SQLite. Each dialect gets its own objects (a private PG schema, prefixed MariaDB tables, a
// temp SQLite file). Every response is kept and checked for the datasource password.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "datapipelines/connectors/connection.hpp"
#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/util/crypto.hpp"
#include "datasource_harness.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

struct Target {
  std::string dialect;
  std::string jdbc_url;
  std::string username;
  std::string password;
  std::vector<std::string> ns;  // the namespace our tables live in ([] on SQLite)
  std::string prefix;           // table-name prefix (MariaDB shares one database)
  std::string slow_sql;         // a statement that runs for seconds
  std::unique_ptr<Connector> admin;
};

// Our own tables, created through the connectors themselves.
void CreateObjects(Target& t) {
  auto conn = t.admin->Open();
  std::string qual = t.ns.empty() ? "" : t.admin->QuoteIdentifier(t.ns[0]) + ".";
  auto q = [&](const std::string& name) {
    return qual + t.admin->QuoteIdentifier(t.prefix + name);
  };
  if (t.dialect == "POSTGRES") conn->Execute("CREATE SCHEMA " + t.admin->QuoteIdentifier(t.ns[0]));
  std::string ts = t.dialect == "MYSQL" ? "DATETIME" : "TIMESTAMP";
  conn->Execute("CREATE TABLE " + q("trips") + " (id INTEGER PRIMARY KEY, zone_id INTEGER, " +
                "fare DECIMAL(10,2), started_at " + ts + ", note VARCHAR(100))");
  conn->Execute("CREATE TABLE " + q("zones") + " (id INTEGER PRIMARY KEY, name VARCHAR(40))");
  conn->Execute("CREATE TABLE " + q("we\"ird") + " (" + t.admin->QuoteIdentifier("co\"l") +
                " INTEGER)");
  for (int i = 1; i <= 5; ++i) {
    conn->Execute("INSERT INTO " + q("trips") + " VALUES (" + std::to_string(i) + ", " +
                  std::to_string(i % 2 + 1) + ", " + std::to_string(i * 10) + ".50, '2026-08-0" +
                  std::to_string(i) + " 10:00:00', 'n" + std::to_string(i) + "')");
  }
  conn->Execute("INSERT INTO " + q("zones") + " VALUES (1, 'north'), (2, 'south')");
  conn->Execute("INSERT INTO " + q("we\"ird") + " VALUES (7)");
  if (t.dialect == "POSTGRES") conn->Execute("ANALYZE " + q("trips"));
}

void DropObjects(Target& t) {
  try {
    auto conn = t.admin->Open();
    if (t.dialect == "POSTGRES") {
      conn->Execute("DROP SCHEMA IF EXISTS " + t.admin->QuoteIdentifier(t.ns[0]) + " CASCADE");
    } else if (t.dialect == "MYSQL") {
      for (const char* name : {"trips", "zones", "we\"ird"}) {
        conn->Execute("DROP TABLE IF EXISTS " + t.admin->QuoteIdentifier(t.prefix + name));
      }
    }
  } catch (const std::exception&) {
  }
}

// jdbc:… + username + password from a test-service URL.
void FromServiceUrl(Target& t, const std::string& url, const std::string& scheme) {
  ConnectorConfig config = ConnectorConfig::FromUrl(url);
  t.jdbc_url = "jdbc:" + scheme + "://" + config.host + ":" + std::to_string(config.port) + "/" +
               config.database;
  t.username = config.username;
  t.password = config.password;
  t.admin = MakeConnector(config);
}

class DatasourceToolsTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    t_.dialect = GetParam();
    t_.prefix = "";
    if (t_.dialect == "POSTGRES") {
      DP_REQUIRE_SERVICE_URL(url, "DP_TEST_PG_URL");
      FromServiceUrl(t_, url, "postgresql");
      t_.ns = {"dp_dsit_" + Pid()};
      t_.slow_sql = "SELECT pg_sleep(5) AS slept";
    } else if (t_.dialect == "MYSQL") {
      DP_REQUIRE_SERVICE_URL(url, "DP_TEST_MYSQL_URL");
      FromServiceUrl(t_, url, "mariadb");
      t_.ns = {t_.admin->config().database};
      t_.prefix = "t" + Pid() + "_";
      t_.slow_sql = "SELECT SLEEP(5) AS slept";
    } else {
      sqlite_path_ = fs::temp_directory_path() / ("dp_dsit_" + Pid() + ".db");
      fs::remove(sqlite_path_);
      ConnectorConfig config = ConnectorConfig::FromUrl("sqlite:" + sqlite_path_.string());
      t_.admin = MakeConnector(config);
      t_.jdbc_url = "jdbc:sqlite:" + sqlite_path_.string();
      t_.password = "sqlite-unused-secret-" + Pid();
      t_.slow_sql =
          "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
    }
    DropObjects(t_);
    CreateObjects(t_);
    Json body{{"name", "it-" + Lower(t_.dialect)},
              {"display_name", "Integration " + t_.dialect},
              {"description", "integration test datasource"},
              {"dialect", t_.dialect},
              {"jdbc_url", t_.jdbc_url},
              {"username", t_.username},
              {"password", t_.password},
              {"workspace", "alpha"}};
    name_ = body["name"];
    Keep(h_.service().Create(AdminSession("ws-a"), body));
  }

  void TearDown() override {
    // The credential never appears in anything the service answered or refused with.
    if (!t_.password.empty()) {
      for (const auto& text : seen_) {
        EXPECT_EQ(text.find(t_.password), std::string::npos) << "password leaked in: " << text;
      }
      for (const auto& row : h_.store().Audit().ListAudit("", 1000)) {
        EXPECT_EQ(row.details.dump().find(t_.password), std::string::npos);
      }
    }
    if (t_.admin) DropObjects(t_);
    if (!sqlite_path_.empty()) fs::remove(sqlite_path_);
  }

  static std::string Lower(std::string text) {
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
  }
  Json Keep(Json value) {
    seen_.push_back(value.dump());
    return value;
  }
  DomainError Refused(const std::function<void()>& fn) {
    DomainError error = Refusal(fn);
    seen_.push_back(error.ToJson().dump());
    seen_.push_back(error.what());
    return error;
  }
  std::string T(const std::string& name) const { return t_.prefix + name; }
  Json Args(const std::string& table = "") const {
    Json args{{"name", name_}};
    if (!table.empty()) args["table"] = T(table);
    if (!t_.ns.empty()) args["namespace"] = t_.ns;
    return args;
  }
  TableLocator Loc(const std::string& table = "") const {
    return TableLocator::FromJson(Args(table));
  }
  Json Preview(Json extra) {
    Json args = Args("trips");
    args.erase("namespace");
    if (!t_.ns.empty()) args["schema"] = t_.ns[0];
    for (auto& [k, v] : extra.items()) args[k] = v;
    return Keep(h_.explorer().PreviewRows(key_, PreviewRequest::FromJson(args)));
  }
  Json Probe(Json extra) {
    Json args{{"name", name_}};
    for (auto& [k, v] : extra.items()) args[k] = v;
    return Keep(h_.explorer().Probe(key_, ProbeRequest::FromJson(args)));
  }
  std::string Qualified(const std::string& table) const {
    return (t_.ns.empty() ? "" : t_.admin->QuoteIdentifier(t_.ns[0]) + ".") +
           t_.admin->QuoteIdentifier(T(table));
  }

  ServiceHarness h_;
  Target t_;
  fs::path sqlite_path_;
  std::string name_;
  Principal key_ = Key("ws-a");
  std::vector<std::string> seen_;
};

TEST_P(DatasourceToolsTest, ListAndGetShowMetadataNeverTheCredential) {
  Json list = Keep(h_.service().List(key_, std::nullopt));
  ASSERT_EQ(list.size(), 1u);
  const Json& entry = list[0];
  EXPECT_EQ(entry["name"], name_);
  EXPECT_EQ(entry["dialect"], t_.dialect);
  EXPECT_EQ(entry["granted"], true);
  EXPECT_EQ(entry["workspace"], "alpha");
  EXPECT_EQ(entry["readonly"], false);
  EXPECT_EQ(entry["facts"], Json::array());
  EXPECT_EQ(entry["definitions"], Json::array());
  EXPECT_FALSE(entry.contains("password"));
  EXPECT_EQ(entry["password_set"], true);
  EXPECT_EQ(entry["pool"]["maximumPoolSize"], 10);
  EXPECT_EQ(Keep(h_.service().Get(key_, name_)), entry);
  EXPECT_TRUE(Keep(h_.service().List(key_, std::string("ORACLE"))).empty());
  // Stored sealed, under the name as associated data.
  auto row = h_.store().Datasources().FindDatasource(name_);
  EXPECT_EQ(row->password_encrypted.rfind("v1:", 0), 0u);
  EXPECT_EQ(row->password_encrypted.find(t_.password), std::string::npos);
}

TEST_P(DatasourceToolsTest, UngrantedIsTheSameAnswerAsNonexistent) {
  Principal other = Key("ws-b");
  EXPECT_TRUE(Keep(h_.service().List(other, std::nullopt)).empty());
  DomainError hidden = Refused([&] { h_.service().Get(other, name_); });
  DomainError absent = Refused([&] { h_.service().Get(other, "no-such-ds"); });
  EXPECT_EQ(hidden.code().code, "datasource.not_found");
  EXPECT_EQ(absent.code().code, "datasource.not_found");
  std::string shape = hidden.what();
  EXPECT_EQ(shape.replace(shape.find(name_), name_.size(), "no-such-ds"), absent.what());
  for (auto op : std::vector<std::function<void()>>{
           [&] { h_.explorer().GetSchemas(other, name_); },
           [&] { h_.explorer().GetTables(other, Loc()); },
           [&] { h_.explorer().GetColumns(other, Loc("trips")); },
           [&] { h_.explorer().GetTableStats(other, Loc("trips")); },
           [&] { h_.service().Test(other, name_); },
           [&] {
             h_.explorer().Probe(other,
                                 ProbeRequest::FromJson({{"name", name_}, {"sql", "SELECT 1"}}));
           }}) {
    EXPECT_EQ(Refused(op).code().code, "datasource.not_found");
  }
  // A grant makes it visible; revoking hides it again.
  Keep(h_.service().Grant(AdminSession("ws-a"), name_, "beta"));
  EXPECT_EQ(Keep(h_.service().Get(other, name_))["name"], name_);
  h_.service().Revoke(AdminSession("ws-a"), name_, "beta");
  EXPECT_EQ(Refused([&] { h_.service().Get(other, name_); }).code().code, "datasource.not_found");
}

TEST_P(DatasourceToolsTest, TestConnectsAndWritesHealthDown) {
  Json result = Keep(h_.service().Test(key_, name_));
  EXPECT_EQ(result["connected"], true) << result.dump();
  EXPECT_FALSE(result["server_version"].get<std::string>().empty());
  EXPECT_TRUE(result.contains("latency_ms"));
  // Recorded (datasources.md §8.1B) and projected on every read as last_test.
  ASSERT_TRUE(h_.store().Datasources().FindDatasource(name_)->last_test.has_value());
  Json last = Keep(h_.service().Get(key_, name_))["last_test"];
  EXPECT_EQ(last["ok"], true) << last.dump();
  EXPECT_EQ(last["tested_at"], result["tested_at"]);
  EXPECT_TRUE(last["error_code"].is_null());
  for (const Json& entry : Keep(h_.service().List(key_, std::nullopt))) {
    if (entry["name"] == name_) {
      EXPECT_EQ(entry["last_test"], last);
    }
  }
  // datasources_test is the one ws_admin tool.
  EXPECT_EQ(Refused([&] { h_.service().Test(Key("ws-a", Scope::kAuthor, (MemberFlags{true, true, false})), name_); })
                .code()
                .code,
            "auth.role_required");
}

TEST_P(DatasourceToolsTest, SchemasListNamespacesWithoutSystemOnes) {
  Json schemas = Keep(h_.explorer().GetSchemas(key_, name_));
  EXPECT_EQ(schemas["truncated"], false);
  if (t_.dialect == "SQLITE") {
    EXPECT_EQ(schemas["schemas"], Json::array());
    EXPECT_EQ(schemas["entries"], Json::array());
    return;
  }
  EXPECT_NE(std::find(schemas["schemas"].begin(), schemas["schemas"].end(), t_.ns[0]),
            schemas["schemas"].end());
  for (const char* system : {"information_schema", "pg_catalog", "mysql", "performance_schema"}) {
    EXPECT_EQ(std::find(schemas["schemas"].begin(), schemas["schemas"].end(), system),
              schemas["schemas"].end())
        << system;
  }
  for (const auto& entry : schemas["entries"]) {
    EXPECT_EQ(entry["namespace"], Json::array({entry["label"]}));
  }
}

TEST_P(DatasourceToolsTest, TablesCarryTheirNamespaceAndFiltersAreExact) {
  Json tables = Keep(h_.explorer().GetTables(key_, Loc()));
  std::vector<std::string> names;
  for (const auto& table : tables["tables"]) {
    names.push_back(table["name"]);
    EXPECT_EQ(table["namespace"], Json(t_.ns));
    if (!t_.ns.empty()) {
      EXPECT_EQ(table["schema"], t_.ns[0]);
    }
    EXPECT_FALSE(table["type"].get<std::string>().empty());
  }
  for (const char* table : {"trips", "zones", "we\"ird"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), T(table)), names.end()) << table;
  }
  EXPECT_EQ(tables["truncated"], false);
  // Unknown and too-deep namespaces match nothing; the legacy schema string works too.
  auto filtered = [&](Json args) {
    args["name"] = name_;
    return Keep(h_.explorer().GetTables(key_, TableLocator::FromJson(args)))["tables"];
  };
  EXPECT_TRUE(filtered({{"namespace", {"no_such_ns"}}}).empty());
  EXPECT_TRUE(filtered({{"namespace", {"a", "b"}}}).empty());
  EXPECT_TRUE(filtered({{"schema", "cat.sch"}}).empty());
  if (!t_.ns.empty()) {
    EXPECT_FALSE(filtered({{"schema", t_.ns[0]}}).empty());
  }
}

TEST_P(DatasourceToolsTest, ColumnsMapToCanonicalTypes) {
  Json columns = Keep(h_.explorer().GetColumns(key_, Loc("trips")));
  ASSERT_EQ(columns.size(), 5u) << columns.dump();
  EXPECT_EQ(columns[0]["name"], "id");
  EXPECT_EQ(columns[0]["type"], "INTEGER");
  EXPECT_EQ(columns[2]["name"], "fare");
  EXPECT_EQ(columns[2]["type"], "DECIMAL");
  EXPECT_TRUE(columns[2].contains("source_type"));
  EXPECT_TRUE(columns[2]["warnings"].is_array());
  Json weird = Keep(h_.explorer().GetColumns(key_, Loc("we\"ird")));
  ASSERT_EQ(weird.size(), 1u);
  EXPECT_EQ(weird[0]["name"], "co\"l");
}

TEST_P(DatasourceToolsTest, UnknownTableNamesTheNearestListedOne) {
  for (auto op :
       std::vector<std::function<void()>>{[&] { h_.explorer().GetColumns(key_, Loc("trip")); },
                                          [&] { h_.explorer().GetTableStats(key_, Loc("trip")); },
                                          [&] {
                                            Preview({{"table", T("trip")}});
                                          }}) {
    DomainError error = Refused(op);
    EXPECT_EQ(error.code().code, "datasource.table_not_found");
    EXPECT_EQ(error.http_status(), 404);
    EXPECT_EQ(error.details()["nearest"]["name"], T("trips")) << error.ToJson().dump();
    EXPECT_NE(std::string(error.what()).find("Did you mean"), std::string::npos);
  }
  // Nothing near: no suggestion.
  DomainError far = Refused([&] { h_.explorer().GetColumns(key_, Loc("completely_unrelated_x")); });
  EXPECT_EQ(far.code().code, "datasource.table_not_found");
  EXPECT_FALSE(far.details().contains("nearest"));
  // A namespace deeper than the dialect's own matches nothing.
  Json args = Args("trips");
  args["namespace"] = {"a", "b"};
  EXPECT_EQ(
      Refused([&] { h_.explorer().GetColumns(key_, TableLocator::FromJson(args)); }).code().code,
      "datasource.table_not_found");
}

TEST_P(DatasourceToolsTest, IdentifierInjectionIsQuotedNeverExecuted) {
  const std::string evil = T("trips") + "\"; DROP TABLE " + Qualified("zones") + "; --";
  for (auto op : std::vector<std::function<void()>>{
           [&] { h_.explorer().GetColumns(key_, Loc(evil.substr(t_.prefix.size()))); },
           [&] { h_.explorer().GetTableStats(key_, Loc(evil.substr(t_.prefix.size()))); },
           [&] {
             Preview({{"table", evil}});
           }}) {
    EXPECT_EQ(Refused(op).code().code, "datasource.table_not_found");
  }
  DomainError by_column = Refused([&] {
    Preview({{"order_by", {{{"column", "id; DROP TABLE " + Qualified("zones")}}}}});
  });
  EXPECT_EQ(by_column.code().code, "request.validation.invalid");
  Json nsargs = Args("trips");
  nsargs["namespace"] = {"x' OR '1'='1"};
  EXPECT_TRUE(
      Keep(h_.explorer().GetTables(key_, TableLocator::FromJson(nsargs)))["tables"].empty());
  // zones is still there, with its rows.
  Json zones = Preview({{"table", T("zones")}});
  EXPECT_EQ(zones["row_count"], 2);
  // The weird (quote-bearing) names themselves are served, quoted.
  Json weird = Preview({{"table", T("we\"ird")}, {"order_by", {{{"column", "co\"l"}}}}});
  EXPECT_EQ(weird["rows"][0]["co\"l"], 7);
}

TEST_P(DatasourceToolsTest, StatsComeFromTheCatalog) {
  Json stats = Keep(h_.explorer().GetTableStats(key_, Loc("trips")));
  EXPECT_TRUE(stats.contains("stats_source"));
  EXPECT_TRUE(stats["indexes"].is_array());
  bool primary = false;
  for (const auto& index : stats["indexes"]) primary = primary || index["primary"] == true;
  // SQLite's INTEGER PRIMARY KEY is the rowid itself: no index to report.
  if (t_.dialect != "SQLITE") {
    EXPECT_TRUE(primary) << stats.dump();
  }
  if (t_.dialect == "POSTGRES") {
    EXPECT_EQ(stats["row_estimate"], 5);
  }
}

TEST_P(DatasourceToolsTest, PreviewBuildsAnOrderedCappedStatement) {
  Json page = Preview({{"order_by", {{{"column", "id"}, {"direction", "DESC"}}}}, {"limit", 2}});
  EXPECT_EQ(page["datasource"], name_);
  EXPECT_EQ(page["table"], T("trips"));
  EXPECT_EQ(page["row_count"], 2);
  EXPECT_EQ(page["truncated"], true);
  EXPECT_EQ(page["rows"][0]["id"], 5);
  EXPECT_EQ(page["rows"][1]["id"], 4);
  EXPECT_EQ(page["columns"][0], (Json{{"name", "id"}, {"type", "INTEGER"}}));
  if (t_.dialect != "SQLITE") {
    EXPECT_EQ(page["rows"][0]["started_at"], "2026-08-05T10:00:00.000000Z");
  }
  Json all = Preview({{"order_by", {{{"column", "id"}}}}});
  EXPECT_EQ(all["row_count"], 5);
  EXPECT_EQ(all["truncated"], false);
  EXPECT_EQ(all["rows"][0]["id"], 1);
  // A blank identifier and a free-text order term are argument faults.
  EXPECT_EQ(Refused([&] { Preview({{"table", "  "}}); }).code().code, "request.validation.invalid");
  EXPECT_EQ(Refused([&] {
              Preview({{"order_by", {"id DESC"}}});
            })
                .code()
                .code,
            "request.validation.invalid");
  EXPECT_EQ(Refused([&] {
              Preview({{"order_by", {{{"column", ""}}}}});
            })
                .code()
                .code,
            "request.validation.invalid");
}

TEST_P(DatasourceToolsTest, ProbeRunsOneSelectWithTypedBindsAndAPlan) {
  Json result = Probe(
      {{"sql", "SELECT id, fare FROM " + Qualified("trips") + " WHERE id >= :min_id ORDER BY id"},
       {"parameters", {{"min_id", {{"type", "INTEGER"}, {"value", "2"}}}}},
       {"limit", 2}});
  EXPECT_EQ(result["row_count_returned"], 2);
  EXPECT_EQ(result["truncated"], true);
  EXPECT_EQ(result["rows"][0]["id"], 2);
  EXPECT_EQ(result["columns"][0]["name"], "id");
  EXPECT_TRUE(result["wall_ms"].is_number_integer());
  ASSERT_TRUE(result.contains("plan")) << result.dump();
  EXPECT_FALSE(result["plan"]["raw"].get<std::string>().empty());
  EXPECT_TRUE(result["warnings"].is_array());
  // Refusals before any connection: not a single SELECT/WITH, a denylisted verb, a bind gap.
  for (const char* sql : {"DELETE FROM zones", "SELECT 1; DROP TABLE zones",
                          "INSERT INTO zones VALUES (3, 'x')", "SELECT * INTO x FROM zones"}) {
    DomainError error = Refused([&] { Probe({{"sql", sql}}); });
    EXPECT_EQ(error.code().code, "request.validation.invalid") << sql;
  }
  EXPECT_EQ(Refused([&] {
              Probe({{"sql", "SELECT :missing AS x"}});
            })
                .code()
                .code,
            "request.validation.invalid");
  EXPECT_EQ(Refused([&] {
              Probe({{"sql", "SELECT :v AS x"},
                     {"parameters", {{"v", {{"type", "INTEGER"}, {"value", "abc"}}}}}});
            })
                .code()
                .code,
            "request.validation.invalid");
  EXPECT_EQ(Preview({{"table", T("zones")}})["row_count"], 2);
  // A driver refusal is the catalogued run failure.
  EXPECT_EQ(Refused([&] {
              Probe({{"sql", "SELECT no_such_column FROM " + Qualified("zones")}});
            })
                .code()
                .code,
            "pipeline.node.query_execution_failed");
}

TEST_P(DatasourceToolsTest, ProbeTimeoutKeepsThePlanAndWallTime) {
  DomainError error = Refused([&] { Probe({{"sql", t_.slow_sql}, {"timeout_seconds", 1}}); });
  EXPECT_EQ(error.code().code, "pipeline.node.query_execution_failed");
  EXPECT_EQ(error.details()["reason"], "timeout") << error.ToJson().dump();
  EXPECT_GE(error.details()["wall_ms"].get<int64_t>(), 900);
  EXPECT_LT(error.details()["wall_ms"].get<int64_t>(), 4500);
  EXPECT_TRUE(error.details().contains("plan"));
}

TEST_P(DatasourceToolsTest, UnreachableDatasourceIsTheCataloguedEnvelope) {
  // Nothing listens on port 1; an embedded file under a missing directory cannot be opened.
  std::string url = t_.dialect == "POSTGRES" ? "jdbc:postgresql://127.0.0.1:1/x"
                    : t_.dialect == "MYSQL"  ? "jdbc:mariadb://127.0.0.1:1/x"
                                             : "jdbc:sqlite:/nonexistent-dp-dir/x.db";
  Json body{{"name", "down-" + Lower(t_.dialect)},
            {"display_name", "Down"},
            {"dialect", t_.dialect},
            {"jdbc_url", url},
            {"username", "nobody"},
            {"password", t_.password},
            {"workspace", "alpha"}};
  Keep(h_.service().Create(AdminSession("ws-a"), body));
  TableLocator loc = TableLocator::FromJson({{"name", body["name"]}, {"table", "t"}});
  for (auto op : std::vector<std::function<void()>>{
           [&] { h_.explorer().GetSchemas(key_, body["name"]); },
           [&] { h_.explorer().GetTables(key_, loc); },
           [&] { h_.explorer().GetColumns(key_, loc); },
           [&] {
             h_.explorer().Probe(
                 key_, ProbeRequest::FromJson({{"name", body["name"]}, {"sql", "SELECT 1"}}));
           }}) {
    DomainError error = Refused(op);
    EXPECT_EQ(error.code().code, "pipeline.execution.datasource_unreachable");
    EXPECT_EQ(error.http_status(), 502);
  }
  EXPECT_TRUE(Keep(h_.service().Get(key_, body["name"]))["last_test"].is_null());  // never tested
  Json test = Keep(h_.service().Test(key_, body["name"]));
  EXPECT_EQ(test["connected"], false);
  EXPECT_FALSE(test["error"].get<std::string>().empty());
  // The failure is recorded by its code alone: no message, nothing naming the host or user.
  Json last = Keep(h_.service().Get(key_, body["name"]))["last_test"];
  EXPECT_EQ(last["ok"], false) << last.dump();
  EXPECT_EQ(last["error_code"], test["error_class"]);
  EXPECT_FALSE(last.contains("message"));
  EXPECT_EQ(last.dump().find("127.0.0.1"), std::string::npos);
  EXPECT_EQ(last.dump().find("nobody"), std::string::npos);
  EXPECT_EQ(last.dump().find("nonexistent"), std::string::npos);
}

TEST_P(DatasourceToolsTest, UpdateRebuildsThePoolAndDeleteHidesIt) {
  Json body = Keep(h_.service().Get(key_, name_));
  body["display_name"] = "Renamed";
  body["query_timeout_seconds"] = 5;
  Json updated = Keep(h_.service().Update(AdminSession("ws-a"), name_, body));
  EXPECT_EQ(updated["display_name"], "Renamed");
  EXPECT_EQ(updated["query_timeout_seconds"], 5);
  // The kept password still opens the (rebuilt) pool.
  EXPECT_EQ(Preview({{"table", T("zones")}})["row_count"], 2);
  body["name"] = "another-name";
  EXPECT_EQ(Refused([&] { h_.service().Update(AdminSession("ws-a"), name_, body); }).code().code,
            "datasource.validation.name_invalid");
  h_.service().Delete(AdminSession("ws-a"), name_);
  EXPECT_EQ(Refused([&] { h_.service().Get(key_, name_); }).code().code, "datasource.not_found");
}

INSTANTIATE_TEST_SUITE_P(Dialects, DatasourceToolsTest,
                         ::testing::Values("POSTGRES", "MYSQL", "SQLITE"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace dp
