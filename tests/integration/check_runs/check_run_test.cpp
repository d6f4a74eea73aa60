// Release checks end to end (pipeline-contract §3.3, §13.17; spec §6.2.42; rest-api §5.10,
// §5.16): the server runs a version's checks against their SQLite datasource through the
// bounded read-only probe, every verdict kind (pass / fail / error) is persisted as a
// pipeline_check_runs row, the latest run per check reads back, and the release gate refuses a
// failing check, releases past it with an override reason on the record, and releases a
// passing draft.
#include <sqlite3.h>
#include <chrono>
#include <thread>

#include "integration/pipelines/pipeline_seed.hpp"

namespace dp::test {
namespace {

class CheckRuns : public SeededPipelineStack {
 protected:
  void SetUp() override {
    SeededPipelineStack::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ExecShop(
        "INSERT INTO orders VALUES (1, 10, 12.50, '2026-01-05'), (2, 10, 99.00, '2026-02-11'),"
        "(3, 11, 5.25, '2026-03-01'), (4, 12, 250.00, '2026-04-20');"
        "INSERT INTO customers VALUES (10, 'EU'), (11, 'US'), (12, 'EU');");
  }

  static Json Check(const std::string& id, const std::string& sql, Json expected) {
    return {{"id", id},
            {"name", "Check " + id + "."},
            {"datasource", "shop"},
            {"sql", sql},
            {"expected", std::move(expected)}};
  }

  static Json Value(double value, double tolerance = 0) {
    return {{"kind", "value"}, {"value", value}, {"tolerance", tolerance}};
  }

  // BaseBody (its released-template-free caller node over shop) carrying `checks`, as a DRAFT.
  std::string Create(const std::string& name, Json checks, Json extra_parameters = Json()) {
    Json body = BaseBody();
    body["name"] = name;
    body["nodes"][0]["template"] = {{"id", "shop/by_region.sql"}, {"version", 1}};
    body["parameters"]["region"] = {{"type", "STRING"}, {"required", false}, {"default", "EU"}};
    if (extra_parameters.is_object()) {
      for (auto it = extra_parameters.begin(); it != extra_parameters.end(); ++it) {
        body["parameters"][it.key()] = it.value();
      }
    }
    if (!checks.empty()) body["checks"] = std::move(checks);
    return SeedPipeline(name, body, false);
  }

  static const Json& RunOf(const Json& runs, const std::string& check_id) {
    for (const Json& run : runs) {
      if (run["check_id"] == check_id) return run;
    }
    static const Json kNone;
    ADD_FAILURE() << "no run for " << check_id << " in " << runs.dump();
    return kNone;
  }

  std::optional<AuditEvent> ReleaseAudit(const std::string& pipeline_id) {
    for (const auto& event : store_->Audit().ListAudit("pipeline.version.released", 100)) {
      if (event.details.value("pipeline_id", "") == pipeline_id) return event;
    }
    return std::nullopt;
  }
};

TEST_F(CheckRuns, EachVerdictKindIsRunPersistedAndReadBack) {
  const std::string id = Create(
      "shop/cr/verdicts",
      Json::array({Check("count_pass", "SELECT COUNT(*) FROM orders", Value(4)),
                   Check("count_fail", "SELECT COUNT(*) FROM orders", Value(5)),
                   Check("avg_tolerance", "SELECT AVG(total) FROM orders", Value(91.7, 0.05)),
                   Check("range_pass", "SELECT AVG(total) FROM orders",
                         {{"kind", "range"}, {"min", 0}, {"max", 100}}),
                   Check("range_fail", "SELECT MAX(total) FROM orders",
                         {{"kind", "range"}, {"min", 0}, {"max", 100}}),
                   Check("rows_pass", "SELECT id FROM customers WHERE region = 'EU'",
                         {{"kind", "rows"}, {"rows", 2}}),
                   Check("rows_fail", "SELECT id FROM customers", {{"kind", "rows"}, {"rows", 0}}),
                   Check("two_columns", "SELECT id, total FROM orders WHERE id = 1", Value(1)),
                   Check("many_rows", "SELECT id FROM orders", Value(1)),
                   Check("broken", "SELECT no_such_column FROM orders", Value(1)),
                   Check("writes", "DELETE FROM orders", {{"kind", "rows"}, {"rows", 0}})}));
  Json out = ToolOk("alice", "pipelines_run_checks", {{"id", id}});
  EXPECT_EQ(out["version"], 1);
  const Json& runs = out["runs"];
  ASSERT_EQ(runs.size(), 11u) << out.dump();
  EXPECT_EQ(runs[0]["check_id"], "count_pass");  // declaration order

  const Json& pass = RunOf(runs, "count_pass");
  EXPECT_EQ(pass["verdict"], "pass");
  EXPECT_EQ(pass["observed"], "4");
  EXPECT_TRUE(pass["message"].is_null());
  EXPECT_TRUE(pass["ran_at"].is_string());
  EXPECT_EQ(pass["name"], "Check count_pass.");
  EXPECT_EQ(pass["expected"]["kind"], "value");

  const Json& fail = RunOf(runs, "count_fail");
  EXPECT_EQ(fail["verdict"], "fail");
  EXPECT_EQ(fail["observed"], "4");
  EXPECT_TRUE(fail["message"].is_string());

  EXPECT_EQ(RunOf(runs, "avg_tolerance")["verdict"], "pass") << runs.dump();
  EXPECT_EQ(RunOf(runs, "range_pass")["verdict"], "pass");
  EXPECT_EQ(RunOf(runs, "range_fail")["verdict"], "fail");
  EXPECT_EQ(RunOf(runs, "rows_pass")["verdict"], "pass");
  EXPECT_EQ(RunOf(runs, "rows_pass")["observed"], 2);
  EXPECT_EQ(RunOf(runs, "rows_fail")["verdict"], "fail");

  // error: no verdict could be formed, the reason in message — never silently a fail.
  for (const char* check : {"two_columns", "many_rows", "broken", "writes"}) {
    const Json& run = RunOf(runs, check);
    EXPECT_EQ(run["verdict"], "error") << check << ": " << run.dump();
    EXPECT_TRUE(run["message"].is_string() && !run["message"].get<std::string>().empty()) << check;
  }
  EXPECT_TRUE(RunOf(runs, "broken")["observed"].is_null());
  EXPECT_EQ(CountShop("orders"), 4);  // the read-only probe never ran the DELETE

  // Persisted: one row per check, via mcp, and the latest read returns them.
  auto stored = execution_store_->LatestCheckRuns(id, 1);
  ASSERT_EQ(stored.size(), 11u);
  for (const auto& row : stored) EXPECT_EQ(row.via, "mcp");
  RestOutcome latest = Rest("alice", "GET", "/api/v1/pipelines/" + id + "/versions/1/checks");
  ASSERT_EQ(latest.status, 200) << latest.body.dump();
  const Json& checks = latest.body["data"]["checks"];
  ASSERT_EQ(checks.size(), 11u);
  EXPECT_EQ(checks[0]["check_id"], "count_pass");
  EXPECT_EQ(checks[0]["latest_run"]["verdict"], "pass");
  EXPECT_EQ(checks[1]["latest_run"]["verdict"], "fail");
}

TEST_F(CheckRuns, DeclaredParametersBindWithDefaultsOrTheOverride) {
  const std::string id = Create(
      "shop/cr/params",
      Json::array(
          {Check("big_orders", "SELECT COUNT(*) FROM orders WHERE total >= :min_total", Value(2)),
           Check("needs_day", "SELECT COUNT(*) FROM orders WHERE day = :day", Value(1))}),
      {{"day", {{"type", "STRING"}, {"required", true}}}});
  // Defaults: min_total 0 → 4 orders (fail); day has no default and none supplied (error).
  Json first = ToolOk("alice", "pipelines_run_checks", {{"id", id}});
  EXPECT_EQ(RunOf(first["runs"], "big_orders")["verdict"], "fail");
  EXPECT_EQ(RunOf(first["runs"], "big_orders")["observed"], "4");
  EXPECT_EQ(RunOf(first["runs"], "needs_day")["verdict"], "error");
  EXPECT_TRUE(RunOf(first["runs"], "needs_day")["observed"].is_null());

  // The REST twin with a parameters override; undeclared keys are ignored. "Latest" orders by
  // ran_at: let the clock move past the first run.
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  RestOutcome second =
      Rest("alice", "POST", "/api/v1/pipelines/" + id + "/versions/1/checks/run",
           {{"parameters", {{"min_total", 50}, {"day", "2026-03-01"}, {"ignored", true}}}});
  ASSERT_EQ(second.status, 200) << second.body.dump();
  const Json& runs = second.body["data"]["runs"];
  EXPECT_EQ(RunOf(runs, "big_orders")["verdict"], "pass");
  EXPECT_EQ(RunOf(runs, "needs_day")["verdict"], "pass");
  auto stored = execution_store_->LatestCheckRuns(id, 1);
  ASSERT_EQ(stored.size(), 2u);
  for (const auto& row : stored) {
    EXPECT_EQ(row.via, "rest");
    EXPECT_EQ(row.parameters.value("min_total", Json()), 50) << row.parameters.dump();
    EXPECT_FALSE(row.parameters.contains("ignored"));
  }
}

TEST_F(CheckRuns, NoChecksMeansEmptyRunsAndLatestIsNullBeforeAnyRun) {
  const std::string none = Create("shop/cr/none", Json::array());
  Json out = ToolOk("alice", "pipelines_run_checks", {{"id", none}});
  EXPECT_EQ(out["runs"], Json::array());

  const std::string id = Create(
      "shop/cr/unrun", Json::array({Check("count", "SELECT COUNT(*) FROM orders", Value(4))}));
  RestOutcome latest = Rest("victor", "GET", "/api/v1/pipelines/" + id + "/versions/1/checks");
  ASSERT_EQ(latest.status, 200) << latest.body.dump();  // read scope suffices
  ASSERT_EQ(latest.body["data"]["checks"].size(), 1u);
  EXPECT_TRUE(latest.body["data"]["checks"][0]["latest_run"].is_null());
}

TEST_F(CheckRuns, VersionsAreExactAndTheRunNeedsExecute) {
  const std::string id = Create(
      "shop/cr/exact", Json::array({Check("count", "SELECT COUNT(*) FROM orders", Value(4))}));
  EXPECT_EQ(Tool("alice", "pipelines_run_checks", {{"id", id}, {"version", 0}}).Code(),
            "jsonrpc:-32602");
  EXPECT_EQ(Tool("alice", "pipelines_run_checks", {{"id", id}, {"version", 7}}).Code(),
            "pipeline.execution.not_found");
  ToolOutcome viewer = Tool("victor", "pipelines_run_checks", {{"id", id}});
  EXPECT_TRUE(viewer.is_error);
  EXPECT_TRUE(execution_store_->LatestCheckRuns(id, 1).empty());
}

TEST_F(CheckRuns, ReleaseGateRefusesThenReleasesOnceTheChecksPass) {
  const std::string id = Create(
      "shop/cr/gate", Json::array({Check("count", "SELECT COUNT(*) FROM orders", Value(5)),
                                   Check("eu", "SELECT id FROM customers WHERE region = 'EU'",
                                         {{"kind", "rows"}, {"rows", 2}})}));
  RestOutcome refused = Rest("alice", "POST", "/api/v1/pipelines/" + id + "/release");
  EXPECT_EQ(refused.status, 409) << refused.body.dump();
  EXPECT_EQ(refused.Code(), "pipeline.check.failed");
  const Json failing = refused.Details()["checks"];
  ASSERT_EQ(failing.size(), 1u) << refused.body.dump();
  EXPECT_EQ(failing[0]["check_id"], "count");
  EXPECT_EQ(failing[0]["expected"]["value"], 5);
  EXPECT_EQ(failing[0]["observed"], "4");
  EXPECT_TRUE(failing[0]["message"].is_string());
  // The gate's run is on the record, via release.
  auto stored = execution_store_->LatestCheckRuns(id, 1);
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_EQ(stored[0].via, "release");
  EXPECT_EQ(Rest("alice", "GET", "/api/v1/pipelines/" + id).body["data"]["status"], "DRAFT");

  ExecShop("INSERT INTO orders VALUES (5, 12, 1.00, '2026-05-01')");
  RestOutcome released = Rest("alice", "POST", "/api/v1/pipelines/" + id + "/release");
  ASSERT_EQ(released.status, 200) << released.body.dump();
  EXPECT_EQ(released.body["data"]["status"], "RELEASED");
  auto audit = ReleaseAudit(id);
  ASSERT_TRUE(audit);
  EXPECT_FALSE(audit->details.contains("checks_overridden"));
}

TEST_F(CheckRuns, ReleaseGateOverrideNeedsTenCharactersAndIsAudited) {
  const std::string id =
      Create("shop/cr/override",
             Json::array({Check("count", "SELECT COUNT(*) FROM orders", Value(5)),
                          Check("broken", "SELECT no_such_column FROM orders", Value(1))}));
  const std::string release = "/api/v1/pipelines/" + id + "/release";
  RestOutcome short_reason = Rest("alice", "POST", release + "?override_checks_reason=too%20short");
  EXPECT_EQ(short_reason.status, 409);
  EXPECT_EQ(short_reason.Code(), "pipeline.check.failed");
  EXPECT_EQ(short_reason.Details()["checks"].size(), 2u);  // fail and error alike
  RestOutcome blank = Rest(
      "alice", "POST", release + "?override_checks_reason=%20%20%20%20%20%20%20%20%20%20%20%20");
  EXPECT_EQ(blank.Code(), "pipeline.check.failed");

  RestOutcome overridden =
      Rest("alice", "POST", release + "?override_checks_reason=fixture%20data%20is%20stale");
  ASSERT_EQ(overridden.status, 200) << overridden.body.dump();
  EXPECT_EQ(overridden.body["data"]["status"], "RELEASED");
  auto audit = ReleaseAudit(id);
  ASSERT_TRUE(audit);
  EXPECT_EQ(audit->details["version"], 1);
  EXPECT_EQ(audit->details["via"], "api_key");
  EXPECT_EQ(audit->details["checks_overridden"], Json::array({"count", "broken"}));
  EXPECT_EQ(audit->details["override_reason"], "fixture data is stale");
}

TEST_F(CheckRuns, ADraftWithoutChecksReleasesExactlyAsBefore) {
  const std::string id = Create("shop/cr/plain", Json::array());
  RestOutcome released = Rest("alice", "POST", "/api/v1/pipelines/" + id + "/release");
  ASSERT_EQ(released.status, 200) << released.body.dump();
  EXPECT_TRUE(execution_store_->LatestCheckRuns(id, 1).empty());
}

}  // namespace
}  // namespace dp::test
