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

#include "datapipelines/limits/rate_limiter.hpp"
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
#include "datapipelines/results/result_store.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/datasources/datasource_explorer.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/docs/skill_docs.hpp"
#include "datapipelines/service/executions/execution_service.hpp"
#include "datapipelines/service/executions/node_run_service.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/service/identity/request_authenticator.hpp"
#include "datapipelines/service/pipelines/check_run_service.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "datapipelines/service/templates/template_service.hpp"
#include "datapipelines/store/audit_reader.hpp"
#include "datapipelines/store/execution_store.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/pipeline_store.hpp"
#include "datapipelines/util/crypto.hpp"
#include "support/surface_stack.hpp"
#include "support/test_env.hpp"

namespace dp::test {

enum class MetadataBackend { kSqlite, kPostgres };

inline const char* BackendName(MetadataBackend backend) {
  return backend == MetadataBackend::kSqlite ? "sqlite" : "postgres";
}

class PipelineStack : public SurfaceStack {
 protected:
  // The metadata backend this test runs on; a parameterized suite overrides it.
  virtual MetadataBackend Backend() const { return MetadataBackend::kSqlite; }
  // Executor limits a suite needs tighter than the defaults (result size, tempdb memory, …).
  virtual void ConfigureExecutions(ExecutionServiceOptions& options) const {}
  // The result store's URL; `standard` is the stack's own (memory, or the test Redis on the
  // production-shaped variant). A suite that needs the store full or unreachable overrides it.
  virtual std::string ResultStoreUrl(const std::string& standard) const { return standard; }

  void SetUp() override {
    std::string url = ":memory:";
    if (Backend() == MetadataBackend::kPostgres) {
      DP_REQUIRE_SERVICE_URL(pg, "DP_TEST_PG_META_URL");
      static std::atomic<int> counter{0};
      pg_url_ = pg;
      schema_ = "dp_pl_" + std::to_string(::getpid()) + "_" + std::to_string(++counter);
      ExecPg("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE; CREATE SCHEMA " + schema_);
      url = pg + (pg.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" +
            schema_;
    }
    OpenSurfaces(url);
    templates_ = std::make_unique<TemplateService>(store_->Templates(), &pipeline_pins_);
    DatasourceServicePorts datasource_ports;
    datasource_ports.users_of = [this](const std::string& name) {
      return pipelines_->PipelinesUsingDatasource(name);
    };
    datasources_ = std::make_unique<DatasourceService>(
        store_->Datasources(), store_->Workspaces(), *audit_, SecretBox::FromBase64(TestKey()),
        DatasourceServiceOptions{}, std::move(datasource_ports));
    explorer_ = std::make_unique<DatasourceExplorer>(*datasources_);
    pipeline_store_ = OpenPipelineStore(*store_);
    audit_reader_ = OpenAuditReader(*store_);
    PipelineServiceOptions options;
    options.max_composition_depth = 3;  // top → mid → child is the deepest seed
    PipelineServicePorts pipeline_ports;
    pipeline_ports.check_runner = [this] { return check_runs_.get(); };
    pipelines_ = std::make_unique<PipelineService>(
        store_->Templates(), store_->Datasources(), *pipeline_store_, *templates_, explorer_.get(),
        audit_reader_.get(), options, std::move(pipeline_ports));
    // On the production-shaped variant results live in Redis, as they do in production.
    const std::string redis = ServiceUrl("DP_TEST_REDIS_URL");
    results_ = OpenResultStore(ResultStoreUrl(
        Backend() == MetadataBackend::kPostgres && !redis.empty() ? redis : "memory"));
    execution_store_ = OpenExecutionStore(*store_);
    ExecutionServiceOptions execution_options;
    execution_options.heartbeat_seconds = 3600;
    ConfigureExecutions(execution_options);
    executions_ = std::make_unique<ExecutionService>(*store_, *execution_store_, *results_, *audit_,
                                                     *audit_reader_, *pipelines_, *templates_,
                                                     *datasources_, execution_options);
    node_runs_ = std::make_unique<NodeRunService>(store_->Templates(), *audit_reader_, *pipelines_,
                                                  *templates_, *datasources_);
    check_runs_ =
        std::make_unique<CheckRunService>(*execution_store_, *audit_, *pipelines_, *datasources_);
    BindTemplateTools(catalog_, *templates_);
    BindDatasourceTools(catalog_, *datasources_, *explorer_);
    BindPipelineTools(catalog_, *pipelines_);
    BindExecutionTools(catalog_, *executions_);
    BindDebugTools(catalog_, *node_runs_, *check_runs_);
    StartMcp();
    rest_->Mount("/api/v1/templates", TemplateRoutes(*templates_));
    rest_->Mount("/api/v1/pipelines", PipelineRoutes(*pipelines_, *executions_, *check_runs_));
    rest_->Mount("/api/v1/executions", ExecutionRoutes(*executions_));
    AddUser("alice", "default", MemberFlags{true, true, false}, Scope::kAuthor);
    AddUser("victor", "default", MemberFlags{}, Scope::kRead);
    AddUser("olga", "other", MemberFlags{true, true, false}, Scope::kAuthor);
    RegisterSqlite("shop", false);
    RegisterSqlite("shop_ro", true);
  }

  void TearDown() override {
    check_runs_.reset();
    node_runs_.reset();
    executions_.reset();
    pipelines_.reset();
    explorer_.reset();
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

  // The pipelines pin templates and are built after the template service.
  PinSourcePort pipeline_pins_{[this]() -> TemplatePinSource* { return pipelines_.get(); }};
  std::unique_ptr<TemplateService> templates_;
  std::unique_ptr<DatasourceService> datasources_;
  std::unique_ptr<DatasourceExplorer> explorer_;
  std::unique_ptr<PipelineStore> pipeline_store_;
  std::unique_ptr<AuditReader> audit_reader_;
  std::unique_ptr<PipelineService> pipelines_;
  std::unique_ptr<ResultStore> results_;
  std::unique_ptr<ExecutionStore> execution_store_;
  std::unique_ptr<ExecutionService> executions_;
  std::unique_ptr<NodeRunService> node_runs_;
  std::unique_ptr<CheckRunService> check_runs_;
  std::vector<std::string> files_;
  std::string pg_url_, schema_;
};

}  // namespace dp::test
