#pragma once
// The whole pipeline authoring stack over a real metadata store (SQLite in memory, or the test
// PostgreSQL when DP_TEST_PG_URL is set and the suite asks for it): AuthService, TemplateService,
// DatasourceService with two SQLite datasources, PipelineService, the MCP dispatcher with the
// template, datasource and pipeline tools bound, and RestApi with the three resources mounted —
// driven the way the HTTP layer drives them.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <pqxx/pqxx>

#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/mcp/tools/datasource_tools.hpp"
#include "datapipelines/mcp/tools/debug_tools.hpp"
#include "datapipelines/mcp/tools/execution_tools.hpp"
#include "datapipelines/mcp/tools/pipeline_tools.hpp"
#include "datapipelines/mcp/tools/template_tools.hpp"
#include "datapipelines/rest/execution_routes.hpp"
#include "datapipelines/rest/pipeline_routes.hpp"
#include "datapipelines/rest/rest_api.hpp"
#include "datapipelines/rest/template_routes.hpp"
#include "datapipelines/results/rate_limiter.hpp"
#include "datapipelines/service/audit_log.hpp"
#include "datapipelines/service/auth_service.hpp"
#include "datapipelines/service/check_run_service.hpp"
#include "datapipelines/results/result_store.hpp"
#include "datapipelines/service/datasource_service.hpp"
#include "datapipelines/service/execution_service.hpp"
#include "datapipelines/service/node_run_service.hpp"
#include "datapipelines/service/pipeline_service.hpp"
#include "datapipelines/service/request_authenticator.hpp"
#include "datapipelines/service/skill_docs.hpp"
#include "datapipelines/service/template_service.hpp"
#include "datapipelines/store/audit_reader.hpp"
#include "datapipelines/store/execution_store.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/pipeline_store.hpp"
#include "datapipelines/util/crypto.hpp"
#include "support/core_stack.hpp"
#include "support/test_env.hpp"

namespace dp::test {

struct ToolOutcome {
  int rpc_error = 0;
  bool is_error = false;
  Json payload;
  std::string Code() const {
    if (rpc_error) return "jsonrpc:" + std::to_string(rpc_error);
    return is_error ? payload["error"]["code"].get<std::string>() : "<none>";
  }
  Json Details() const { return is_error ? payload["error"].value("details", Json()) : Json(); }
};

struct RestOutcome {
  int status = 0;
  Json body;
  std::string Code() const {
    return body.contains("error") ? body["error"]["code"].get<std::string>() : "<none>";
  }
  Json Details() const {
    return body.contains("error") ? body["error"].value("details", Json()) : Json();
  }
};

enum class MetadataBackend { kSqlite, kPostgres };

inline const char* BackendName(MetadataBackend backend) {
  return backend == MetadataBackend::kSqlite ? "sqlite" : "postgres";
}

class PipelineStack : public ::testing::Test {
 protected:
  // The metadata backend this test runs on; a parameterized suite overrides it.
  virtual MetadataBackend Backend() const { return MetadataBackend::kSqlite; }

  void SetUp() override {
    std::string url = ":memory:";
    if (Backend() == MetadataBackend::kPostgres) {
      DP_REQUIRE_SERVICE_URL(pg, "DP_TEST_PG_META_URL");
      static std::atomic<int> counter{0};
      pg_url_ = pg;
      schema_ = "dp_pl_" + std::to_string(::getpid()) + "_" + std::to_string(++counter);
      ExecPg("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE; CREATE SCHEMA " + schema_);
      url = pg + (pg.find('?') == std::string::npos ? "?" : "&") +
            "options=-csearch_path%3D" + schema_;
    }
    test::OpenCoreStack(store_, audit_, auth_, CheapAuthOptions(), url);
    limiter_ = OpenRateLimiter("memory", RateLimitPolicy{100000, 1000000});
    authenticator_ = std::make_unique<RequestAuthenticator>(*auth_, *limiter_, *store_);
    templates_ = std::make_unique<TemplateService>(*store_, *auth_);
    datasources_ = std::make_unique<DatasourceService>(*store_, *audit_,
                                                       SecretBox::FromBase64(TestKey()));
    pipeline_store_ = OpenPipelineStore(*store_);
    audit_reader_ = OpenAuditReader(*store_);
    PipelineServiceOptions options;
    options.max_composition_depth = 2;
    pipelines_ = std::make_unique<PipelineService>(*store_, *pipeline_store_, *auth_,
                                                   *templates_, datasources_.get(),
                                                   audit_reader_.get(), options);
    templates_->SetPinSource(pipelines_.get());
    results_ = OpenResultStore("memory");
    execution_store_ = OpenExecutionStore(*store_);
    ExecutionServiceOptions execution_options;
    execution_options.heartbeat_seconds = 3600;
    executions_ = std::make_unique<ExecutionService>(
        *store_, *execution_store_, *results_, *auth_, *audit_, *audit_reader_, *pipelines_,
        *templates_, *datasources_, execution_options);
    node_runs_ = std::make_unique<NodeRunService>(*store_, *audit_reader_, *auth_, *pipelines_,
                                                  *templates_, *datasources_);
    check_runs_ = std::make_unique<CheckRunService>(*execution_store_, *auth_, *audit_,
                                                    *pipelines_, *datasources_);
    pipelines_->SetCheckRunner(check_runs_.get());
    BindTemplateTools(catalog_, *templates_);
    BindDatasourceTools(catalog_, *datasources_);
    BindPipelineTools(catalog_, *pipelines_);
    BindExecutionTools(catalog_, *executions_);
    BindDebugTools(catalog_, *node_runs_, *check_runs_);
    mcp_ = std::make_unique<McpServer>(catalog_, *auth_, *audit_, BuiltInSkillDocs(), "test");
    rest_ =
        std::make_unique<RestApi>(*auth_, *authenticator_, BuiltInSkillDocs(), RestApiOptions{});
    rest_->Mount("/api/v1/templates", TemplateRoutes(*templates_));
    rest_->Mount("/api/v1/pipelines", PipelineRoutes(*pipelines_, *executions_, *check_runs_));
    rest_->Mount("/api/v1/executions", ExecutionRoutes(*executions_));
    AddUser("alice", "default", Role::kAuthor, Scope::kAuthor);
    AddUser("victor", "default", Role::kViewer, Scope::kRead);
    AddUser("olga", "other", Role::kAuthor, Scope::kAuthor);
    RegisterSqlite("shop", false);
    RegisterSqlite("shop_ro", true);
  }

  void TearDown() override {
    if (pipelines_) pipelines_->SetCheckRunner(nullptr);
    check_runs_.reset();
    node_runs_.reset();
    executions_.reset();
    pipelines_.reset();
    datasources_.reset();
    store_.reset();
    if (!schema_.empty()) ExecPg("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    for (const auto& path : files_) std::filesystem::remove(path);
  }

  void ExecPg(const std::string& sql) {
    pqxx::connection conn(pg_url_);
    pqxx::nontransaction tx(conn);
    tx.exec(sql);
  }

  static std::string TestKey() { return Base64Encode(std::string(32, 'k')); }

  // A SQLite datasource holding `orders` and `customers`, granted to `default`.
  void RegisterSqlite(const std::string& name, bool readonly) {
    std::string path = (std::filesystem::temp_directory_path() /
                        ("dp-pipelines-" + name + "-" + NewUuid() + ".sqlite"))
                           .string();
    files_.push_back(path);
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db,
                 "CREATE TABLE orders (id INTEGER, customer_id INTEGER, total REAL, day TEXT);"
                 "CREATE TABLE customers (id INTEGER, region TEXT);",
                 nullptr, nullptr, nullptr);
    sqlite3_close(db);
    Json body = {{"name", name},
                 {"display_name", "SQLite " + name},
                 {"dialect", "SQLITE"},
                 {"jdbc_url", "jdbc:sqlite:" + path},
                 {"readonly", readonly}};
    datasources_->CreateAsOperator(body, {"default"});
  }

  void AddUser(const std::string& name, const std::string& workspace, Role role, Scope scope) {
    std::string email = name + "@example.com";
    auth_->CreateUser(email, name, "correct horse battery", false);
    if (!store_->FindWorkspaceByName(workspace)) auth_->CreateWorkspace(workspace, "", email);
    auth_->SetMembership(workspace, email, role);
    IssuedApiKey key = auth_->CreateApiKeyFor(email, workspace, "k", scope, KeyKind::kUser, {});
    keys_[name] = key.plaintext;
    principals_[name] = auth_->AuthenticateApiKey(key.plaintext, "127.0.0.1");
  }

  const Principal& P(const std::string& name) { return principals_.at(name); }

  ToolOutcome Tool(const std::string& user, const std::string& tool, Json arguments) {
    Json request = {{"jsonrpc", "2.0"},
                    {"id", 1},
                    {"method", "tools/call"},
                    {"params", {{"name", tool}, {"arguments", std::move(arguments)}}}};
    std::string correlation = "corr-" + std::to_string(++calls_);
    Json response = mcp_->HandleRequest(request, McpRequestContext{P(user), correlation, "::1"});
    ToolOutcome out;
    if (response.contains("error")) {
      out.rpc_error = response["error"]["code"].get<int>();
      out.payload = response["error"];
      return out;
    }
    out.is_error = response["result"]["isError"].get<bool>();
    out.payload = Json::parse(response["result"]["content"][0]["text"].get<std::string>());
    return out;
  }

  Json ToolOk(const std::string& user, const std::string& tool, Json arguments) {
    ToolOutcome out = Tool(user, tool, std::move(arguments));
    EXPECT_EQ(out.Code(), "<none>") << tool << ": " << out.payload.dump();
    return out.payload;
  }

  RestOutcome Rest(const std::string& user, const std::string& method, const std::string& target,
                   const Json& body = nullptr, const std::string& if_match = "") {
    HttpRequest request;
    request.method = method;
    request.target = target;
    size_t question = target.find('?');
    request.path = target.substr(0, question);
    if (question != std::string::npos) request.query = target.substr(question + 1);
    if (!body.is_null()) request.body = body.dump();
    request.headers.Add("DP-API-Key", keys_.at(user));
    if (!if_match.empty()) request.headers.Add("If-Match", if_match);
    request.remote_ip = "127.0.0.1";
    request.correlation_id = "rest-" + std::to_string(++calls_);
    HttpResponse response = rest_->HandleApi(request);
    RestOutcome out;
    out.status = response.status;
    out.body = response.body.empty() ? Json() : Json::parse(response.body);
    return out;
  }

  static std::string TemplatePath(const std::string& id, const std::string& rest = "") {
    std::string encoded;
    for (char c : id) encoded += c == '/' ? std::string("%2F") : std::string(1, c);
    return "/api/v1/templates/" + encoded + rest;
  }

  // Creates (and optionally releases) a SQLITE template as alice.
  void SeedTemplate(const std::string& id, const std::string& body, bool release = false,
                    const std::string& dialect = "SQLITE", const std::string& type = "sql") {
    Json write = {{"id", id}, {"display_name", "T " + id}, {"description", "t"}, {"body", body}};
    if (type == "sql") write["dialect"] = dialect;
    write["type"] = type;
    RestOutcome out = Rest("alice", "POST", "/api/v1/templates", write);
    ASSERT_EQ(out.status, 201) << out.body.dump();
    if (release) {
      ASSERT_EQ(Rest("alice", "POST", TemplatePath(id, "/release")).status, 200);
    }
  }

  // Learns a table's columns over MCP as `user` (what table_not_learned reads back).
  void LearnColumns(const std::string& user, const std::string& datasource,
                    const std::string& table) {
    ToolOk(user, "datasources_get_columns", {{"name", datasource}, {"table", table}});
  }

  std::unique_ptr<MetadataStore> store_;
  std::unique_ptr<AuditLog> audit_;
  std::unique_ptr<AuthService> auth_;
  std::unique_ptr<RateLimiter> limiter_;
  std::unique_ptr<RequestAuthenticator> authenticator_;
  std::unique_ptr<TemplateService> templates_;
  std::unique_ptr<DatasourceService> datasources_;
  std::unique_ptr<PipelineStore> pipeline_store_;
  std::unique_ptr<AuditReader> audit_reader_;
  std::unique_ptr<PipelineService> pipelines_;
  std::unique_ptr<ResultStore> results_;
  std::unique_ptr<ExecutionStore> execution_store_;
  std::unique_ptr<ExecutionService> executions_;
  std::unique_ptr<NodeRunService> node_runs_;
  std::unique_ptr<CheckRunService> check_runs_;
  ToolCatalog catalog_;
  std::unique_ptr<McpServer> mcp_;
  std::unique_ptr<RestApi> rest_;
  std::map<std::string, std::string> keys_;
  std::map<std::string, Principal> principals_;
  std::vector<std::string> files_;
  std::string pg_url_, schema_;
  int calls_ = 0;
};

}  // namespace dp::test
