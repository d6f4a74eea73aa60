// The execution failure folder (tests/execution_failure_cases): each case is a pipeline that
// saves cleanly and fails at run time, with the executor limits it needs; run over MCP on
// SQLite metadata with in-process results and on PostgreSQL metadata with Redis results, each
// must fail with its catalogued code, status and details, leave its record queryable with the
// same code, serve no result, and (where it says) leave the target tables as they were.
//
// What a case may add (all data; the body below is the same for every case):
//   options        executor limits (result size, tempdb memory, node/execution timeouts, the
//                  per-user and per-instance execution slots, the run-time composition depth);
//   result_store   the result store URL per backend ("sqlite" / "postgres"): a full in-process
//                  store, or a Redis URL nothing listens on;
//   datasources    extra datasources over a test service (`service` names the URL's env var),
//                  e.g. PostgreSQL with its own query_timeout_seconds;
//   pipeline_parameters / parameters  the case pipeline's declared parameters (else the
//                  base body's) and the values the execute call supplies (else none);
//   children       released child pipelines a PIPELINE node of the case runs;
//   occupy         a slow pipeline a user keeps running while the case is executed (slots);
//   nodes[].dialect  the template dialect of a node on a non-SQLite datasource;
//   expect         code, status, failed_node_id, details; `child` (the child's own record);
//                  `no_record` (refused before anything was recorded); `stopped_within_ms`
//                  and `no_statement_left` (no session of ours on that service is still
//                  running a statement or holding a transaction: it really stopped).
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "datapipelines/connectors/connector_config.hpp"
#include "integration/pipelines/pipeline_seed.hpp"

namespace dp::test {
namespace {

struct FailureCase {
  std::string name;
  Json spec;
  MetadataBackend backend;
};

void PrintTo(const FailureCase& c, std::ostream* os) {
  *os << c.name << " on " << BackendName(c.backend);
}

std::vector<FailureCase> LoadCases() {
  const auto dir = std::filesystem::path(DP_SOURCE_DIR) / "tests/execution_failure_cases";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<FailureCase> cases;
  for (const auto& path : files) {
    std::ifstream in(path);
    Json spec = Json::parse(in);
    for (MetadataBackend backend : {MetadataBackend::kSqlite, MetadataBackend::kPostgres}) {
      cases.push_back({path.stem().string(), spec, backend});
    }
  }
  return cases;
}

class ExecutionFailureCases : public SeededPipelineStack,
                              public ::testing::WithParamInterface<FailureCase> {
 protected:
  MetadataBackend Backend() const override { return GetParam().backend; }

  void ConfigureExecutions(ExecutionServiceOptions& options) const override {
    const Json limits = GetParam().spec.value("options", Json::object());
    auto& executor = options.executor;
    executor.result_max_bytes = limits.value("result_max_bytes", executor.result_max_bytes);
    executor.tempdb_max_memory_bytes =
        limits.value("tempdb_max_memory_bytes", executor.tempdb_max_memory_bytes);
    executor.node_timeout_seconds =
        limits.value("node_timeout_seconds", executor.node_timeout_seconds);
    executor.execution_timeout_seconds =
        limits.value("execution_timeout_seconds", executor.execution_timeout_seconds);
    options.max_concurrent_per_user =
        limits.value("max_concurrent_per_user", options.max_concurrent_per_user);
    options.max_concurrent_per_instance =
        limits.value("max_concurrent_per_instance", options.max_concurrent_per_instance);
    options.max_composition_depth =
        limits.value("max_composition_depth", options.max_composition_depth);
  }

  std::string ResultStoreUrl(const std::string& standard) const override {
    const Json stores = GetParam().spec.value("result_store", Json::object());
    return stores.value(BackendName(GetParam().backend), standard);
  }

  // Each node's `sql` becomes a template of its own (`dialect`, default SQLITE), rendered once
  // by `user` (the draft rule) or released (a child's); other nodes pass through as written.
  Json Body(const std::string& name, const Json& nodes, const std::string& user, bool release) {
    Json body = BaseBody();
    body["name"] = name;
    body["nodes"] = Json::array();
    for (const Json& node : nodes) {
      Json out = node;
      out["type"] = node.value("type", "DQL");
      out["depends_on"] = node.value("depends_on", Json::array());
      if (node.contains("sql")) {
        const std::string id = name + "/" + node["id"].get<std::string>() + ".sql";
        SeedTemplate(id, node["sql"], release, node.value("dialect", "SQLITE"));
        if (!release) ToolOk(user, "templates_render", {{"id", id}, {"context", Json::object()}});
        out.erase("sql");
        out.erase("dialect");
        out["template"] = {{"id", id}, {"version", 1}};
      }
      body["nodes"].push_back(std::move(out));
    }
    return body;
  }

  // A datasource over a test service, granted to `default`; false when the service is absent.
  bool RegisterServiceDatasource(const Json& ds) {
    const std::string url = ServiceUrl(ds["service"].get<std::string>().c_str());
    if (url.empty()) return false;
    ConnectorConfig config = ConnectorConfig::FromUrl(url);
    const std::string scheme = ds.value("scheme", "postgresql");
    Json body = {{"name", ds["name"]},
                 {"display_name", "Case " + ds["name"].get<std::string>()},
                 {"dialect", ds.value("dialect", "POSTGRES")},
                 {"jdbc_url", "jdbc:" + scheme + "://" + config.host + ":" +
                                  std::to_string(config.port) + "/" + config.database},
                 {"username", config.username},
                 {"password", config.password},
                 {"readonly", ds.value("readonly", true)}};
    if (ds.contains("query_timeout_seconds")) {
      body["query_timeout_seconds"] = ds["query_timeout_seconds"];
    }
    datasources_->CreateAsOperator(body, {"default"});
    return true;
  }

  // Sessions of ours on the service's database still running a statement or holding a
  // transaction open (a cursor read shows as FETCH, so match the state, not the SQL text).
  static int64_t BusySessions(const std::string& url) {
    pqxx::connection conn(url);
    pqxx::nontransaction tx(conn);
    auto row = tx.exec1(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> "
        "pg_backend_pid() AND application_name = 'datapipelines' AND state IN ('active', "
        "'idle in transaction', 'idle in transaction (aborted)')");
    return row[0].as<int64_t>();
  }
};

TEST_P(ExecutionFailureCases, FailsWithItsCodeAndChangesNothing) {
  const Json& spec = GetParam().spec;
  const Json& expect = spec["expect"];
  const std::string name = "cases/" + GetParam().name;
  for (const Json& ds : spec.value("datasources", Json::array())) {
    if (!RegisterServiceDatasource(ds)) {
      if (ServicesRequired()) FAIL() << ds["service"] << " is not set";
      GTEST_SKIP() << ds["service"] << " not set (run scripts/test-services start)";
    }
  }
  ExecShop(
      "INSERT INTO orders VALUES (1, 10, 12.50, '2026-01-05'), (2, 10, 99.00, '2026-02-11'),"
      "(3, 11, 5.25, '2026-03-01'), (4, 12, 250.00, '2026-04-20');");
  if (spec.contains("setup_sql")) ExecShop(spec["setup_sql"]);
  for (const Json& child : spec.value("children", Json::array())) {
    SeedPipeline(child["name"], Body(child["name"], child["nodes"], "alice", true), true);
  }
  Json body = Body(name, spec["nodes"], "alice", false);
  if (spec.contains("pipeline_parameters")) body["parameters"] = spec["pipeline_parameters"];
  const std::string id = ToolOk("alice", "pipelines_create", body)["id"];

  // A user keeps a slow execution running while the case runs (the execution slots).
  std::future<ToolOutcome> occupier;
  std::string occupier_user, occupier_execution;
  if (spec.contains("occupy")) {
    const Json& occupy = spec["occupy"];
    occupier_user = occupy.value("user", "alice");
    if (!keys_.count(occupier_user)) {
      AddUser(occupier_user, "default", MemberFlags{true, true, false}, Scope::kAuthor);
    }
    const std::string slow =
        ToolOk(occupier_user, "pipelines_create",
               Body(name + "/occupy", occupy["nodes"], occupier_user, false))["id"];
    occupier = std::async(std::launch::async, [this, slow, occupier_user] {
      return Tool(occupier_user, "pipelines_execute",
                  {{"id", slow}, {"parameters", Json::object()}});
    });
    occupier_execution = AwaitRunning(occupier_user, slow);
    ASSERT_FALSE(occupier_execution.empty()) << "the occupying execution never ran";
  }

  const auto started = std::chrono::steady_clock::now();
  ToolOutcome out = Tool("alice", "pipelines_execute",
                         {{"id", id}, {"parameters", spec.value("parameters", Json::object())}});
  const auto elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - started)
                              .count();
  if (occupier.valid()) {
    // Freed again: the occupier cancels over MCP the moment it saw its run RUNNING (the
    // launch row is written before the record, so the same-credential rule already holds) and
    // the run ends ABORTED, whatever the case said.
    ToolOk(occupier_user, "executions_cancel", {{"execution_id", occupier_execution}});
    EXPECT_EQ(occupier.get().Code(), "pipeline.execution.aborted");
  }
  ASSERT_EQ(out.Code(), expect["code"]) << spec["why"] << "\n" << out.payload.dump();
  const Json& error = out.payload["error"];
  if (expect.contains("status")) {
    EXPECT_EQ(error["status"], expect["status"]) << error.dump();
  }
  if (expect.contains("failed_node_id")) {
    EXPECT_EQ(error["failed_node_id"], expect["failed_node_id"]) << error.dump();
  }
  const Json details = expect.value("details", Json::object());
  for (const auto& [key, value] : details.items()) {
    EXPECT_EQ(error["details"][key], value) << key << " in " << error.dump();
  }
  if (expect.contains("stopped_within_ms")) {
    // The statement was stopped, not waited out: far below what it asked to sleep.
    EXPECT_LT(elapsed_ms, expect["stopped_within_ms"].get<int64_t>()) << error.dump();
  }
  if (expect.contains("no_statement_left")) {
    const Json& probe = expect["no_statement_left"];
    const std::string url = ServiceUrl(probe["service"].get<std::string>().c_str());
    int64_t busy = -1;
    // The cancel is acknowledged before the backend has fully settled: allow it a moment.
    for (int i = 0; i < 200 && busy != 0; ++i) {
      busy = BusySessions(url);
      if (busy) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_EQ(busy, 0) << "the timed-out statement is still running at the server";
  }

  if (expect.value("no_record", false)) {
    // Refused before the run: no execution was recorded for the pipeline, none is RUNNING.
    EXPECT_FALSE(error.contains("execution_id")) << error.dump();
    for (const Json& item : ToolOk("alice", "executions_list", Json::object())) {
      EXPECT_NE(item.value("pipeline_id", ""), id) << item.dump();
    }
    return;
  }
  EXPECT_FALSE(error["correlation_id"].get<std::string>().empty());

  // The record says the same, and there is no result to read.
  const std::string execution = error["execution_id"];
  Json got = ToolOk("alice", "executions_get", {{"execution_id", execution}});
  ASSERT_TRUE(got.is_object() && got["error"].is_object()) << got.dump();
  EXPECT_EQ(got["status"], expect["status"]);
  EXPECT_EQ(got["error"]["code"], expect["code"]) << got.dump();
  if (expect.value("abort_reason", false)) {
    EXPECT_FALSE(got["abort_reason"].get<std::string>().empty()) << got.dump();
  }
  EXPECT_EQ(Tool("alice", "executions_get_result", {{"execution_id", execution}}).Code(),
            "result.execution_failed");
  EXPECT_TRUE(ToolOk("alice", "executions_list", {{"status", "RUNNING"}}).empty())
      << "an execution was left RUNNING";
  if (expect.contains("child")) {
    // The child ran under its own record, which names its own failure.
    const Json& want = expect["child"];
    const std::string child_id = error["details"].value("child_execution_id", "");
    ASSERT_FALSE(child_id.empty()) << error.dump();
    Json child = ToolOk("alice", "executions_get", {{"execution_id", child_id}});
    EXPECT_EQ(child["status"], want["status"]) << child.dump();
    EXPECT_EQ(child["error"]["code"], want["code"]) << child.dump();
    if (want.contains("failed_node_id")) {
      EXPECT_EQ(child["error"]["failed_node_id"], want["failed_node_id"]) << child.dump();
    }
  }
  const Json rows_after = expect.value("rows_after", Json::object());
  for (const auto& [table, rows] : rows_after.items()) {
    EXPECT_EQ(CountShop(table), rows.get<int64_t>()) << table << " was changed by a failed run";
  }
}

INSTANTIATE_TEST_SUITE_P(Folder, ExecutionFailureCases, ::testing::ValuesIn(LoadCases()),
                         [](const auto& info) {
                           return info.param.name + "_" + BackendName(info.param.backend);
                         });

}  // namespace
}  // namespace dp::test
