// The execution failure folder (tests/execution_failure_cases): each case is a pipeline that
// saves cleanly and fails at run time, with the executor limits it needs; run over MCP on
// SQLite metadata with in-process results and on PostgreSQL metadata with Redis results, each
// must fail with its catalogued code, status and details, leave its record queryable with the
// same code, serve no result, and (where it says) leave the target tables as they were.
#include <sqlite3.h>

#include <filesystem>
#include <fstream>

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
  }

  // Each node's `sql` becomes a template of its own, rendered once by alice (the draft rule).
  Json CaseBody() {
    const Json& spec = GetParam().spec;
    Json body = BaseBody();
    body["name"] = "cases/" + GetParam().name;
    body["nodes"] = Json::array();
    for (const Json& node : spec["nodes"]) {
      const std::string id =
          "cases/" + GetParam().name + "/" + node["id"].get<std::string>() + ".sql";
      SeedTemplate(id, node["sql"]);
      ToolOk("alice", "templates_render", {{"id", id}, {"context", Json::object()}});
      Json out = node;
      out.erase("sql");
      out["type"] = node.value("type", "DQL");
      out["template"] = {{"id", id}, {"version", 1}};
      out["depends_on"] = node.value("depends_on", Json::array());
      body["nodes"].push_back(std::move(out));
    }
    return body;
  }
};

TEST_P(ExecutionFailureCases, FailsWithItsCodeAndChangesNothing) {
  const Json& spec = GetParam().spec;
  const Json& expect = spec["expect"];
  ExecShop(
      "INSERT INTO orders VALUES (1, 10, 12.50, '2026-01-05'), (2, 10, 99.00, '2026-02-11'),"
      "(3, 11, 5.25, '2026-03-01'), (4, 12, 250.00, '2026-04-20');");
  if (spec.contains("setup_sql")) ExecShop(spec["setup_sql"]);
  const std::string id = ToolOk("alice", "pipelines_create", CaseBody())["id"];

  ToolOutcome out =
      Tool("alice", "pipelines_execute", {{"id", id}, {"parameters", Json::object()}});
  ASSERT_EQ(out.Code(), expect["code"]) << spec["why"] << "\n" << out.payload.dump();
  const Json& error = out.payload["error"];
  EXPECT_EQ(error["status"], expect["status"]) << error.dump();
  if (expect.contains("failed_node_id")) {
    EXPECT_EQ(error["failed_node_id"], expect["failed_node_id"]) << error.dump();
  }
  const Json details = expect.value("details", Json::object());
  for (const auto& [key, value] : details.items()) {
    EXPECT_EQ(error["details"][key], value) << key << " in " << error.dump();
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
