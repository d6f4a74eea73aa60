// The registry rules (datasources.md §3.3, §5.6, §9, §11; MCP spec §6.2.22), the tempdb
// scratch check (§6.2.34), table_forbidden on a real permission refusal (PostgreSQL), the
// bootstrap file and the credential envelope.
#include <gtest/gtest.h>

#include <fstream>

#include "datapipelines/connectors/connection.hpp"
#include "datapipelines/connectors/connector.hpp"
#include "datasource_harness.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

Json SqliteBody(const std::string& name, const std::string& path) {
  return Json{{"name", name},
              {"display_name", "SQLite " + name},
              {"dialect", "SQLITE"},
              {"jdbc_url", "jdbc:sqlite:" + path},
              {"workspace", "alpha"}};
}

Json PgBody(const std::string& name) {
  return Json{{"name", name},          {"display_name", "PG"},
              {"dialect", "POSTGRES"}, {"jdbc_url", "jdbc:postgresql://127.0.0.1:5432/app"},
              {"username", "app"},     {"password", "pw-123"},
              {"workspace", "alpha"}};
}

class DatasourceRegistryTest : public ::testing::Test {
 protected:
  std::string Code(const Json& body, const Principal& who = AdminSession("ws-a")) {
    return std::string(Refusal([&] { h_.service().Create(who, body); }).code().code);
  }
  ServiceHarness h_;
  std::string path_ =
      (std::filesystem::temp_directory_path() / ("dp_dsreg_" + Pid() + ".db")).string();
};

// Each case: a mutation of a valid body → the §9 code it must be refused with.
TEST_F(DatasourceRegistryTest, EveryFieldIsValidated) {
  struct Case {
    const char* what;
    std::function<void(Json&)> mutate;
    const char* code;
  };
  std::vector<Case> cases = {
      {"uppercase name", [](Json& b) { b["name"] = "Bad"; }, "datasource.validation.name_invalid"},
      {"long name", [](Json& b) { b["name"] = std::string(64, 'a'); },
       "datasource.validation.name_invalid"},
      {"reserved tempdb", [](Json& b) { b["name"] = "tempdb"; },
       "datasource.validation.name_invalid"},
      {"no name", [](Json& b) { b.erase("name"); }, "datasource.validation.name_invalid"},
      {"unknown dialect", [](Json& b) { b["dialect"] = "NOSQL"; },
       "datasource.validation.dialect_invalid"},
      {"unserved dialect",
       [](Json& b) {
         b["dialect"] = "ORACLE";
         b["jdbc_url"] = "jdbc:oracle:thin:@//db:1521/x";
       },
       "datasource.driver_not_loaded"},
      {"scheme mismatch", [](Json& b) { b["jdbc_url"] = "jdbc:mysql://h:3306/x"; },
       "datasource.validation.jdbc_url_scheme_invalid"},
      {"credential in url", [](Json& b) { b["jdbc_url"] = "jdbc:postgresql://u:pw@h:5432/x"; },
       "datasource.validation.jdbc_url_malformed"},
      {"password key in url", [](Json& b) { b["jdbc_url"] = "jdbc:postgresql://h/x?password=p"; },
       "datasource.validation.jdbc_url_malformed"},
      {"refused key in url", [](Json& b) { b["jdbc_url"] = "jdbc:postgresql://h/x?sslfactory=a"; },
       "datasource.validation.jdbc_url_malformed"},
      {"bad port", [](Json& b) { b["jdbc_url"] = "jdbc:postgresql://h:99x/x"; },
       "datasource.validation.jdbc_url_malformed"},
      {"no password", [](Json& b) { b.erase("password"); },
       "datasource.validation.password_missing"},
      {"zero timeout", [](Json& b) { b["query_timeout_seconds"] = 0; },
       "datasource.validation.query_timeout_invalid"},
      {"text timeout", [](Json& b) { b["query_timeout_seconds"] = "60"; },
       "datasource.validation.query_timeout_invalid"},
      {"third namespace",
       [](Json& b) {
         b["properties"] = {{"other", Json::object()}};
       },
       "datasource.validation.properties_invalid"},
      {"server-managed hikari",
       [](Json& b) {
         b["properties"] = {{"hikari", {{"password", "x"}}}};
       },
       "datasource.validation.properties_invalid"},
      {"bad hikari value",
       [](Json& b) {
         b["properties"] = {{"hikari", {{"maximumPoolSize", "many"}}}};
       },
       "datasource.validation.properties_invalid"},
      {"secret jdbc key",
       [](Json& b) {
         b["properties"] = {{"jdbc", {{"sslpassword", "x"}}}};
       },
       "datasource.validation.properties_invalid"},
      {"suffix secret",
       [](Json& b) {
         b["properties"] = {{"jdbc", {{"myClientSecret", "x"}}}};
       },
       "datasource.validation.properties_invalid"},
      {"non-string jdbc",
       [](Json& b) {
         b["properties"] = {{"jdbc", {{"sslmode", 1}}}};
       },
       "datasource.validation.properties_invalid"},
      {"pattern allowlist", [](Json& b) { b["introspection_include_schemas"] = {"apex_%"}; },
       "datasource.validation.properties_invalid"},
      {"qualified allowlist", [](Json& b) { b["introspection_include_schemas"] = {"db.s"}; },
       "datasource.validation.properties_invalid"},
  };
  for (const auto& c : cases) {
    Json body = PgBody("valid-pg");
    c.mutate(body);
    EXPECT_EQ(Code(body), c.code) << c.what;
  }
  // SQLite refuses its in-process escape hatches (§5.6).
  Json sqlite = SqliteBody("lite", path_);
  sqlite["properties"] = {{"jdbc", {{"limit_attached", "10"}}}};
  EXPECT_EQ(Code(sqlite), "datasource.validation.properties_invalid");
  EXPECT_TRUE(h_.store().Datasources().ListDatasources().empty());
}

TEST_F(DatasourceRegistryTest, FailuresAreCollectedNotFirstOnly) {
  Json body = PgBody("Bad Name");
  body["query_timeout_seconds"] = -1;
  body["properties"] = {{"other", 1}};
  DomainError error = Refusal([&] { h_.service().Create(AdminSession("ws-a"), body); });
  ASSERT_TRUE(error.details().contains("errors"));
  EXPECT_EQ(error.details()["errors"].size(), 3u) << error.ToJson().dump();
}

TEST_F(DatasourceRegistryTest, ValidBodyIsNormalizedAndDuplicatesRefused) {
  Json body = PgBody("pg-main");
  body["introspection_include_schemas"] = {" APEX_Reporting ", "", "apex_reporting", "x$#"};
  body["properties"] = {{"hikari", {{"maximumPoolSize", 4}}}, {"jdbc", {{"sslmode", "disable"}}}};
  Json view = h_.service().Create(AdminSession("ws-a"), body);
  EXPECT_EQ(view["introspection_include_schemas"], (Json{"apex_reporting", "x$#"}));
  EXPECT_EQ(view["pool"]["maximumPoolSize"], 4);
  EXPECT_EQ(view["granted"], true);
  EXPECT_FALSE(view.dump().find("pw-123") != std::string::npos);
  EXPECT_EQ(Code(body), "datasource.validation.duplicate_name");
  EXPECT_EQ(Refusal([&] { h_.service().Create(AdminSession("ws-a"), body); }).http_status(), 409);
}

TEST_F(DatasourceRegistryTest, OnlyHumansManageDatasources) {
  EXPECT_EQ(Code(PgBody("by-key"), Key("ws-a")), "auth.scope.insufficient");
  Principal author = AdminSession("ws-a");
  author.super_admin = false;
  author.membership = MemberFlags{true, true, false};
  EXPECT_EQ(Code(PgBody("by-author"), author), "auth.role_required");
  // A ws_admin registers into its own workspace, which is granted at once.
  Principal ws_admin = author;
  ws_admin.membership = MemberFlags{true, true, true};
  Json view = h_.service().Create(ws_admin, PgBody("by-ws-admin"));
  EXPECT_EQ(view["workspace"], "alpha");
  EXPECT_TRUE(h_.store().Datasources().IsDatasourceGranted("by-ws-admin", "ws-a"));
  // ...but never an embedded SQLite file: that reads the server's own filesystem.
  EXPECT_EQ(Code(SqliteBody("ws-lite", path_), ws_admin), "auth.role_required");
  // Grants are an instance admin's verb; a ws_admin elsewhere cannot even see the row.
  EXPECT_EQ(Refusal([&] { h_.service().Grant(ws_admin, "by-ws-admin", "beta"); }).code().code,
            "auth.role_required");
  Principal stranger = ws_admin;
  stranger.workspace_id = "ws-b";
  EXPECT_EQ(Refusal([&] { h_.service().Delete(stranger, "by-ws-admin"); }).code().code,
            "datasource.not_found");
  EXPECT_EQ(Refusal([&] { h_.service().Delete(Key("ws-a"), "by-ws-admin"); }).code().code,
            "auth.scope.insufficient");
  h_.service().Delete(ws_admin, "by-ws-admin");
  EXPECT_EQ(Code(PgBody("by-ws-admin")), "datasource.validation.duplicate_name");
}

TEST_F(DatasourceRegistryTest, InstanceLevelRowsOmitTheWorkspaceAndNeedAGrant) {
  Json body = PgBody("instance-ds");
  body.erase("workspace");
  Json view = h_.service().Create(AdminSession("ws-a"), body);
  EXPECT_FALSE(view.contains("workspace"));
  EXPECT_EQ(view["granted"], false);
  EXPECT_EQ(Refusal([&] { h_.service().Get(Key("ws-a"), "instance-ds"); }).code().code,
            "datasource.not_found");
  Json grants = h_.service().Grant(AdminSession("ws-a"), "instance-ds", "alpha");
  EXPECT_EQ(grants["grants"][0]["workspace"], "alpha");
  EXPECT_EQ(h_.service().Get(Key("ws-a"), "instance-ds")["granted"], true);
  EXPECT_EQ(
      Refusal([&] { h_.service().Grant(AdminSession("ws-a"), "instance-ds", "nope"); }).code().code,
      "workspace.not_found");
}

// A super admin tests a datasource they just registered, before any grant; the operator CLI's
// grant / ungrant / test go through the same service (issue 13).
TEST_F(DatasourceRegistryTest, OperatorsTestAnyDatasource) {
  std::ofstream(path_).flush();  // an empty file is an empty SQLite database
  Json body = SqliteBody("fresh", path_);
  body.erase("workspace");
  h_.service().Create(AdminSession("ws-a"), body);
  EXPECT_EQ(h_.service().Test(AdminSession("ws-a"), "fresh")["connected"], true);
  auto last_test = h_.store().Datasources().FindDatasource("fresh")->last_test;
  ASSERT_TRUE(last_test.has_value());
  EXPECT_TRUE(last_test->ok);
  // A ws_admin of a workspace it is not granted to still cannot see it.
  EXPECT_EQ(Refusal([&] { h_.service().Test(Key("ws-a"), "fresh"); }).code().code,
            "datasource.not_found");
  Principal super_key = Key("ws-a");  // a super admin's key stays inside its grants
  super_key.super_admin = true;
  EXPECT_EQ(Refusal([&] { h_.service().Test(super_key, "fresh"); }).code().code,
            "datasource.not_found");
  EXPECT_EQ(h_.service().TestAsOperator("fresh")["connected"], true);
  EXPECT_EQ(Refusal([&] { h_.service().TestAsOperator("nope"); }).code().code,
            "datasource.not_found");

  EXPECT_EQ(h_.service().GrantAsOperator("fresh", "alpha")["grants"], (Json{"alpha"}));
  EXPECT_EQ(h_.service().GrantAsOperator("fresh", "alpha")["grants"],
            (Json{"alpha"}));  // idempotent
  EXPECT_EQ(h_.service().Test(Key("ws-a"), "fresh")["connected"], true);
  EXPECT_EQ(Refusal([&] { h_.service().GrantAsOperator("fresh", "nope"); }).code().code,
            "workspace.not_found");
  h_.service().RevokeAsOperator("fresh", "alpha");
  EXPECT_FALSE(h_.store().Datasources().IsDatasourceGranted("fresh", "ws-a"));
  EXPECT_EQ(Refusal([&] { h_.service().RevokeAsOperator("fresh", "alpha"); }).code().code,
            "datasource.not_found");
  std::filesystem::remove(path_);
}

// A deleted datasource's name: the refusal says restore, and purge when nothing uses it.
TEST_F(DatasourceRegistryTest, DeletedNameOffersRestoreOrPurge) {
  h_.service().Create(AdminSession("ws-a"), PgBody("gone"));
  h_.service().Delete(AdminSession("ws-a"), "gone");
  DomainError taken = Refusal([&] { h_.service().Create(AdminSession("ws-a"), PgBody("gone")); });
  EXPECT_EQ(taken.code().code, std::string("datasource.validation.duplicate_name"));
  EXPECT_EQ(taken.details()["reason"], "deleted");
  EXPECT_EQ(taken.details()["restore"], true);
  EXPECT_EQ(taken.details()["purge"], true);
  EXPECT_NE(std::string(taken.what()).find("restore"), std::string::npos);

  // Restore brings the row (and its grant) back; a live name cannot be restored.
  Json restored = h_.service().Restore(AdminSession("ws-a"), "gone");
  EXPECT_EQ(restored["name"], "gone");
  EXPECT_EQ(h_.service().Get(Key("ws-a"), "gone")["granted"], true);
  EXPECT_EQ(
      Refusal([&] { h_.service().Restore(AdminSession("ws-a"), "gone"); }).details()["reason"],
      "not_deleted");
  EXPECT_EQ(Refusal([&] { h_.service().Restore(Key("ws-a"), "gone"); }).code().code,
            "auth.scope.insufficient");

  // While a pipeline names it, only restore is offered; purge is refused.
  h_.service().Delete(AdminSession("ws-a"), "gone");
  std::vector<std::string> users = {"acme/daily"};
  h_.users_of = [&users](const std::string&) { return users; };
  taken = Refusal([&] { h_.service().Create(AdminSession("ws-a"), PgBody("gone")); });
  EXPECT_EQ(taken.details()["purge"], false);
  EXPECT_EQ(taken.details()["pipelines"], (Json{"acme/daily"}));
  EXPECT_EQ(Refusal([&] { h_.service().Purge(AdminSession("ws-a"), "gone"); }).code().code,
            "datasource.in_use");
  Principal ws_admin = AdminSession("ws-a");
  ws_admin.super_admin = false;
  EXPECT_EQ(Refusal([&] { h_.service().Purge(ws_admin, "gone"); }).code().code,
            "auth.role_required");

  // Nothing uses it: purge frees the name for a new registration.
  users.clear();
  h_.service().Purge(AdminSession("ws-a"), "gone");
  EXPECT_FALSE(h_.store().Datasources().FindDatasource("gone").has_value());
  EXPECT_EQ(h_.service().Create(AdminSession("ws-a"), PgBody("gone"))["name"], "gone");
  h_.service().Delete(AdminSession("ws-a"), "gone");
  h_.service().PurgeAsOperator("gone");
  EXPECT_EQ(Refusal([&] { h_.service().PurgeAsOperator("gone"); }).code().code,
            "datasource.not_found");
}

TEST_F(DatasourceRegistryTest, TempdbProbeIsAScratchCheck) {
  auto probe = [&](const std::string& sql) {
    return h_.explorer().Probe(Key("ws-a"),
                               ProbeRequest::FromJson({{"name", "tempdb"}, {"sql", sql}}));
  };
  Json incomplete = probe("SELECT a.id FROM staged_orders a JOIN staged_b b ON a.id = b.id");
  EXPECT_EQ(incomplete["check"], "syntax_and_names");
  EXPECT_EQ(incomplete["validation_status"], "incomplete");
  EXPECT_TRUE(incomplete.contains("parsed"));
  EXPECT_TRUE(incomplete["parsed"].is_null());
  EXPECT_EQ(incomplete["missing_table"], "staged_orders");
  EXPECT_TRUE(incomplete.contains("wall_ms"));
  EXPECT_FALSE(incomplete["note"].get<std::string>().empty());

  Json executed = h_.explorer().Probe(
      Key("ws-a"),
      ProbeRequest::FromJson({{"name", "tempdb"},
                              {"sql",
                               "WITH v(a, b) AS (VALUES (1, 'x'), (2, 'y')) "
                               "SELECT a, b FROM v WHERE a >= :lo ORDER BY a"},
                              {"parameters", {{"lo", {{"type", "INTEGER"}, {"value", "2"}}}}}}));
  EXPECT_EQ(executed["validation_status"], "executed");
  EXPECT_EQ(executed["parsed"], true);
  EXPECT_EQ(executed["rows"], (Json::array({{{"a", 2}, {"b", "y"}}})));
  EXPECT_EQ(executed["row_count_returned"], 1);

  DomainError syntax = Refusal([&] { probe("SELECT FROM WHERE"); });
  EXPECT_EQ(syntax.code().code, "pipeline.node.query_execution_failed");
  EXPECT_EQ(Refusal([&] { probe("DROP TABLE x"); }).code().code, "request.validation.invalid");
  // Each check is private: nothing survives between calls.
  EXPECT_EQ(probe("SELECT * FROM sqlite_master")["row_count_returned"], 0);
}

TEST_F(DatasourceRegistryTest, PermissionRefusalIsTableForbidden) {
  DP_REQUIRE_SERVICE_URL(url, "DP_TEST_PG_URL");
  ConnectorConfig config = ConnectorConfig::FromUrl(url);
  auto admin = MakeConnector(config);
  std::string schema = "dp_dsforbid_" + Pid();
  auto conn = admin->Open();
  conn->Execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  conn->Execute("CREATE SCHEMA " + schema);
  conn->Execute("CREATE TABLE " + schema + ".secret_t (id INTEGER)");
  // The owner revokes its own SELECT: the table stays listed, reading it is refused (42501).
  conn->Execute("REVOKE SELECT ON " + schema + ".secret_t FROM CURRENT_USER");
  Json body{{"name", "pg-forbid"},
            {"display_name", "PG"},
            {"dialect", "POSTGRES"},
            {"jdbc_url", "jdbc:postgresql://" + config.host + ":" + std::to_string(config.port) +
                             "/" + config.database},
            {"username", config.username},
            {"password", config.password},
            {"workspace", "alpha"}};
  h_.service().Create(AdminSession("ws-a"), body);
  DomainError preview = Refusal([&] {
    h_.explorer().PreviewRows(
        Key("ws-a"), PreviewRequest::FromJson(
                         {{"name", "pg-forbid"}, {"table", "secret_t"}, {"schema", schema}}));
  });
  EXPECT_EQ(preview.code().code, "datasource.table_forbidden");
  EXPECT_EQ(preview.http_status(), 403);
  DomainError probe = Refusal([&] {
    h_.explorer().Probe(Key("ws-a"),
                        ProbeRequest::FromJson({{"name", "pg-forbid"},
                                                {"sql", "SELECT * FROM " + schema + ".secret_t"}}));
  });
  EXPECT_EQ(probe.code().code, "datasource.table_forbidden");
  EXPECT_EQ(std::string(preview.ToJson().dump() + probe.ToJson().dump()).find(config.password),
            std::string::npos);
  conn->Execute("DROP SCHEMA " + schema + " CASCADE");
}

// MariaDB filters the catalog by privilege, so an unreadable table is not listed (preview
// answers not-found, "or the credentials cannot see it"); a probe naming it is refused with
// 1142 and must come back as datasource.table_forbidden. scripts/test-services creates the
// least-privilege user: SELECT on dp_limited_visible only.
TEST_F(DatasourceRegistryTest, MariaDbPermissionRefusalIsTableForbidden) {
  DP_REQUIRE_SERVICE_URL(url, "DP_TEST_MYSQL_LIMITED_URL");
  ConnectorConfig config = ConnectorConfig::FromUrl(url);
  Json body{{"name", "maria-limited"},
            {"display_name", "MariaDB, least privilege"},
            {"dialect", "MYSQL"},
            {"jdbc_url", "jdbc:mariadb://" + config.host + ":" + std::to_string(config.port) + "/" +
                             config.database},
            {"username", config.username},
            {"password", config.password},
            {"workspace", "alpha"}};
  h_.service().Create(AdminSession("ws-a"), body);
  auto probe = [&](const std::string& table) {
    return h_.explorer().Probe(
        Key("ws-a"),
        ProbeRequest::FromJson({{"name", "maria-limited"}, {"sql", "SELECT id FROM " + table}}));
  };
  EXPECT_EQ(probe("dp_limited_visible")["row_count_returned"], 0);
  DomainError forbidden = Refusal([&] { probe("dp_limited_secret"); });
  EXPECT_EQ(forbidden.code().code, "datasource.table_forbidden");
  EXPECT_EQ(forbidden.http_status(), 403);
  DomainError hidden = Refusal([&] {
    h_.explorer().PreviewRows(
        Key("ws-a"),
        PreviewRequest::FromJson({{"name", "maria-limited"}, {"table", "dp_limited_secret"}}));
  });
  EXPECT_EQ(hidden.code().code, "datasource.table_not_found");
  EXPECT_EQ(std::string(forbidden.ToJson().dump() + hidden.ToJson().dump()).find(config.password),
            std::string::npos);
}

TEST_F(DatasourceRegistryTest, BootstrapFileCreatesWhenAbsentAndNeverUpdates) {
  std::string file =
      (std::filesystem::temp_directory_path() / ("dp_dsboot_" + Pid() + ".yaml")).string();
  ::setenv("DP_TEST_BOOT_PW", "boot-secret-pw", 1);
  std::ofstream(file) << "datasources:\n"
                         "  - name: demo\n"
                         "    display_name: Demo city mobility\n"
                         "    dialect: SQLITE\n"
                         "    jdbc_url: jdbc:sqlite:" +
                             path_ +
                             "\n"
                             "    readonly: true\n"
                             "    query_timeout_seconds: 30\n"
                             "    grants: [alpha]\n"
                             "  - name: later\n"
                             "    display_name: Waits for its workspace\n"
                             "    dialect: POSTGRES\n"
                             "    jdbc_url: jdbc:postgresql://127.0.0.1:5432/app\n"
                             "    username: app\n"
                             "    password: ${DP_TEST_BOOT_PW}\n"
                             "    properties:\n"
                             "      hikari:\n"
                             "        maximumPoolSize: 3\n"
                             "    grants: [gamma]\n";
  EXPECT_EQ(h_.service().BootstrapFromFile(file), std::vector<std::string>{"demo"});
  Json demo = h_.service().Get(Key("ws-a"), "demo");
  EXPECT_EQ(demo["readonly"], true);
  EXPECT_EQ(demo["query_timeout_seconds"], 30);
  EXPECT_FALSE(demo.contains("workspace"));
  // Once gamma exists the waiting entry is created; demo is never touched again.
  h_.store().Workspaces().InsertWorkspace(Workspace{"ws-c", "gamma", "Gamma", "", 3});
  std::string before = h_.store().Datasources().FindDatasource("demo")->password_encrypted;
  EXPECT_EQ(h_.service().BootstrapFromFile(file), std::vector<std::string>{"later"});
  EXPECT_EQ(h_.store().Datasources().FindDatasource("demo")->password_encrypted, before);
  auto later = h_.store().Datasources().FindDatasource("later");
  ASSERT_TRUE(later);
  EXPECT_EQ(later->properties["hikari"]["maximumPoolSize"], 3);
  EXPECT_EQ(later->password_encrypted.find("boot-secret-pw"), std::string::npos);
  EXPECT_TRUE(h_.service().BootstrapFromFile(file).empty());
  std::ofstream(file) << "datasources:\n  - name: Bad Name\n    dialect: SQLITE\n";
  EXPECT_THROW(h_.service().BootstrapFromFile(file), std::runtime_error);
  std::filesystem::remove(file);
}

TEST_F(DatasourceRegistryTest, ListingsStopAtTheCapAndSayTruncated) {
  std::filesystem::remove(path_);
  {
    auto admin = MakeConnector(ConnectorConfig::FromUrl("sqlite:" + path_));
    auto conn = admin->Open();
    conn->Execute("BEGIN");
    for (int i = 0; i <= 2000; ++i) {
      conn->Execute("CREATE TABLE t" + std::to_string(10000 + i) + " (id INTEGER)");
    }
    conn->Execute("COMMIT");
  }
  h_.service().Create(AdminSession("ws-a"), SqliteBody("wide", path_));
  Json tables = h_.explorer().GetTables(Key("ws-a"), TableLocator::FromJson({{"name", "wide"}}));
  EXPECT_EQ(tables["tables"].size(), 2000u);
  EXPECT_EQ(tables["truncated"], true);
  std::filesystem::remove(path_);
}

TEST_F(DatasourceRegistryTest, NoCurrentSchemaMeansTheNamespaceIsRequired) {
  DP_REQUIRE_SERVICE_URL(url, "DP_TEST_MYSQL_URL");
  ConnectorConfig config = ConnectorConfig::FromUrl(url);
  // A database-less MariaDB URL: the session has no current database to default to.
  Json body{{"name", "maria-nodb"},
            {"display_name", "MariaDB without a database"},
            {"dialect", "MYSQL"},
            {"jdbc_url", "jdbc:mariadb://" + config.host + ":" + std::to_string(config.port) + "/"},
            {"username", config.username},
            {"password", config.password},
            {"workspace", "alpha"}};
  h_.service().Create(AdminSession("ws-a"), body);
  DomainError error = Refusal([&] {
    h_.explorer().GetColumns(
        Key("ws-a"), TableLocator::FromJson({{"name", "maria-nodb"}, {"table", "anything"}}));
  });
  EXPECT_EQ(error.code().code, "pipeline.execution.parameter_required");
  // The tables listing carries each row's own namespace and keeps working.
  Json tables =
      h_.explorer().GetTables(Key("ws-a"), TableLocator::FromJson({{"name", "maria-nodb"}}));
  EXPECT_TRUE(tables["tables"].is_array());
  Json schemas = h_.explorer().GetSchemas(Key("ws-a"), "maria-nodb");
  EXPECT_NE(std::find(schemas["schemas"].begin(), schemas["schemas"].end(), config.database),
            schemas["schemas"].end());
}

TEST(SecretBoxTest, SealsWithFreshNoncesAndBindsTheName) {
  SecretBox box(RandomBytes(32));
  std::string a = box.Seal("hunter2", "pg-prod");
  std::string b = box.Seal("hunter2", "pg-prod");
  EXPECT_NE(a, b);
  EXPECT_EQ(a.rfind("v1:", 0), 0u);
  EXPECT_EQ(box.Open(a, "pg-prod"), "hunter2");
  EXPECT_EQ(box.Open(box.Seal("", "x"), "x"), "");
  EXPECT_THROW(box.Open(a, "pg-other"), SecretBoxError);  // a lifted ciphertext fails
  EXPECT_THROW(SecretBox(RandomBytes(32)).Open(a, "pg-prod"), SecretBoxError);  // wrong key
  std::string tampered = a;
  tampered[tampered.size() - 3] = tampered[tampered.size() - 3] == 'A' ? 'B' : 'A';
  EXPECT_THROW(box.Open(tampered, "pg-prod"), SecretBoxError);
  EXPECT_THROW(box.Open("v2:abc", "pg-prod"), SecretBoxError);
  EXPECT_THROW(SecretBox("short"), SecretBoxError);
  EXPECT_THROW(SecretBox::FromBase64("not base64!!"), SecretBoxError);
}

TEST(SecretBoxTest, KeyFileIsGeneratedOnceOnlyWhenAllowed) {
  auto dir = std::filesystem::temp_directory_path() / ("dp_keyfile_" + Pid());
  std::filesystem::remove_all(dir);
  std::string file = (dir / "encryption.key").string();
  EXPECT_THROW(SecretBox::FromConfigOrKeyFile("", file, false), SecretBoxError);
  EXPECT_FALSE(std::filesystem::exists(file));
  SecretBox first = SecretBox::FromConfigOrKeyFile("", file, true);
  auto perms = std::filesystem::status(file).permissions();
  EXPECT_EQ(perms & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  SecretBox second = SecretBox::FromConfigOrKeyFile("", file, true);
  EXPECT_EQ(second.Open(first.Seal("s", "n"), "n"), "s");
  std::string configured = Base64Encode(RandomBytes(32));
  SecretBox explicit_key = SecretBox::FromConfigOrKeyFile(configured, file, false);
  EXPECT_THROW(explicit_key.Open(first.Seal("s", "n"), "n"), SecretBoxError);
  EXPECT_THROW(SecretBox::FromConfigOrKeyFile(Base64Encode("too short"), file, true),
               SecretBoxError);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dp
