// A result's lifetime (spec §6.2.15, pipeline-contract §13.10, rest-api §7.6): the TTL is
// fixed when the result is written, reading never extends it, and once it has elapsed every
// read path answers result.expired (410) while the execution's record stays readable; a
// result asked for while its execution still runs is result.execution_incomplete (409). On
// SQLite metadata with the in-process store and on PostgreSQL metadata with Redis, where the
// store's own expiry (EXPIRE) is what ends the result.
#include <chrono>
#include <future>
#include <thread>

#include "integration/pipelines/pipeline_seed.hpp"

namespace dp::test {
namespace {

using namespace std::chrono_literals;

constexpr int kTtlSeconds = 1;

class ResultLifetime : public SeededPipelineStack,
                       public ::testing::WithParamInterface<MetadataBackend> {
 protected:
  MetadataBackend Backend() const override { return GetParam(); }

  void ConfigureExecutions(ExecutionServiceOptions& options) const override {
    options.ttl_min_seconds = kTtlSeconds;
    options.ttl_default_seconds = kTtlSeconds;
  }

  void SetUp() override {
    SeededPipelineStack::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ExecShop(
        "INSERT INTO orders VALUES (1, 10, 12.50, '2026-01-05'), (2, 10, 99.00, "
        "'2026-02-11');");
    SeedTemplate("shop/ttl/all.sql", "SELECT id, total FROM orders ORDER BY id");
    SeedTemplate("shop/ttl/slow.sql",
                 "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < "
                 "100000000000) SELECT count(*) FROM n");
    for (const char* id : {"shop/ttl/all.sql", "shop/ttl/slow.sql"}) {
      ToolOk("alice", "templates_render", {{"id", id}, {"context", Json::object()}});
    }
  }

  std::string Create(const std::string& name, const std::string& tmpl) {
    Json body = BaseBody();
    body["name"] = name;
    body["nodes"] = Json::array({{{"id", "only"},
                                  {"type", "DQL"},
                                  {"source", "shop"},
                                  {"template", {{"id", tmpl}, {"version", 1}}},
                                  {"depends_on", Json::array()}}});
    return ToolOk("alice", "pipelines_create", body)["id"];
  }

  Json Page(const std::string& execution, const std::string& format = "json") {
    return Tool("alice", "executions_get_result", {{"execution_id", execution}, {"format", format}})
        .payload;
  }
};

TEST_P(ResultLifetime, AnElapsedTtlIsResultExpiredOnEveryReadPathAndReadingNeverExtendsIt) {
  const std::string id = Create("shop/ttl/report", "shop/ttl/all.sql");
  Json run = ToolOk("alice", "pipelines_execute", {{"id", id}, {"parameters", Json::object()}});
  ASSERT_EQ(run["status"], "SUCCESS") << run.dump();
  const std::string execution = run["execution_id"];
  const auto written = std::chrono::steady_clock::now();

  // Read again and again within the TTL: each read succeeds and none of them moves the end.
  Json first = Page(execution);
  ASSERT_EQ(first["total_rows"], 2) << first.dump();
  const std::string expires_at = first["expires_at"];
  while (std::chrono::steady_clock::now() - written < 600ms) {
    Json again = Page(execution);
    ASSERT_EQ(again.value("total_rows", -1), 2) << again.dump();
    EXPECT_EQ(again["expires_at"], expires_at);
    std::this_thread::sleep_for(100ms);
  }

  // Past the TTL fixed at write time (a margin for the store's own expiry clock).
  std::this_thread::sleep_until(written + std::chrono::seconds(kTtlSeconds) + 1200ms);
  for (const char* format : {"json", "csv", "arrow"}) {
    ToolOutcome out =
        Tool("alice", "executions_get_result", {{"execution_id", execution}, {"format", format}});
    EXPECT_EQ(out.Code(), "result.expired") << format << ": " << out.payload.dump();
    EXPECT_EQ(out.payload["error"]["details"]["execution_id"], execution);
    EXPECT_EQ(out.payload["error"]["details"]["expired_at"], expires_at);
  }
  RestOutcome cursor = Rest("alice", "GET", "/api/v1/executions/" + execution + "/result");
  EXPECT_EQ(cursor.status, 410) << cursor.body.dump();
  EXPECT_EQ(cursor.body["error"]["code"], "result.expired") << cursor.body.dump();

  // The record outlives its rows: the run is still SUCCESS, with the end it had.
  Json got = ToolOk("alice", "executions_get", {{"execution_id", execution}});
  EXPECT_EQ(got["status"], "SUCCESS");
  EXPECT_EQ(got["result"]["total_rows"], 2);
}

TEST_P(ResultLifetime, AResultOfARunningExecutionIsIncompleteUntilItEnds) {
  const std::string id = Create("shop/ttl/slow", "shop/ttl/slow.sql");
  auto running = std::async(std::launch::async, [&] {
    return Tool("alice", "pipelines_execute", {{"id", id}, {"parameters", Json::object()}});
  });
  const std::string execution = AwaitRunning("alice", id);
  ASSERT_FALSE(execution.empty()) << "the slow execution never ran";

  ToolOutcome out = Tool("alice", "executions_get_result", {{"execution_id", execution}});
  EXPECT_EQ(out.Code(), "result.execution_incomplete") << out.payload.dump();
  EXPECT_EQ(out.payload["error"]["details"]["status"], "RUNNING");
  RestOutcome cursor = Rest("alice", "GET", "/api/v1/executions/" + execution + "/result");
  EXPECT_EQ(cursor.status, 409) << cursor.body.dump();
  EXPECT_EQ(cursor.body["error"]["code"], "result.execution_incomplete");

  ToolOk("alice", "executions_cancel", {{"execution_id", execution}});
  EXPECT_EQ(running.get().Code(), "pipeline.execution.aborted");
  // Ended without a result: now it is the failed-execution answer, not incomplete.
  EXPECT_EQ(Tool("alice", "executions_get_result", {{"execution_id", execution}}).Code(),
            "result.execution_failed");
}

INSTANTIATE_TEST_SUITE_P(Backends, ResultLifetime,
                         ::testing::Values(MetadataBackend::kSqlite, MetadataBackend::kPostgres),
                         [](const auto& info) { return std::string(BackendName(info.param)); });

}  // namespace
}  // namespace dp::test
