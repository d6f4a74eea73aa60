// The execution tables (migration 0005) against both adapters: SQLite on a fresh temp file,
// PostgreSQL (DP_TEST_PG_META_URL) in a private schema per test. The terminal write and the
// crash sweep are compare-and-swaps, so the interesting cases are the ones that lose the race.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <pqxx/pqxx>
#include <string>

#include "datapipelines/store/execution_store.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/pipeline_store.hpp"
#include "integration/store/store_suite.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

PipelineVersionRecord Version(const std::string& id, int version, const std::string& status,
                              const std::string& hash) {
  PipelineVersionRecord v;
  v.pipeline_id = id;
  v.version = version;
  v.status = status;
  v.body = {{"name", "acme/p"}, {"nodes", Json::array()}};
  v.body_hash = hash;
  v.created_by = v.updated_by = "u1";
  v.created_at_ms = v.updated_at_ms = 1000 + version;
  return v;
}

// A RUNNING execution of p-1 v1 in w1 by u1 on instance i-live, started at `started`.
ExecutionRecord Execution(const std::string& id, int64_t started) {
  ExecutionRecord e;
  e.id = id;
  e.workspace_id = "w1";
  e.pipeline_id = "p-1";
  e.pipeline_name = "acme/p";
  e.pipeline_version = 1;
  e.version_status = "RELEASED";
  e.status = "RUNNING";
  e.triggered_by = "u1";
  e.via = "rest";
  e.instance_id = "i-live";
  e.started_at_ms = started;
  return e;
}

CheckRunRecord CheckRun(const std::string& id, const std::string& check_id, int version,
                        const std::string& verdict, int64_t ran_at) {
  CheckRunRecord c;
  c.id = id;
  c.pipeline_id = "p-1";
  c.version = version;
  c.check_id = check_id;
  c.name = "Check " + check_id;
  c.expected = {{"value", "74.62"}};
  if (verdict != "error") c.observed = {{"value", verdict == "pass" ? "74.62" : "1"}};
  c.verdict = verdict;
  c.via = "release";
  c.ran_at_ms = ran_at;
  return c;
}

class ExecutionStoreTest : public store_suite::StoreSuite {
 protected:
  void SetUp() override {
    StoreSuite::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    store_->Users().InsertUser(User{"u1", "one@example.com", "One", "", true, false, 1});
    store_->Users().InsertUser(User{"u2", "two@example.com", "Two", "", true, false, 1});
    store_->Workspaces().InsertWorkspace(Workspace{"w1", "analytics", "W1", "u1", 2});
    store_->Workspaces().InsertWorkspace(Workspace{"w2", "finance", "W2", "u1", 3});
    // p-1: v1 RELEASED plus an open draft v2; p-2: a sole draft; p-3 in the other workspace.
    // The executions' foreign keys need every (pipeline, version) they name to exist.
    pipelines_ = OpenPipelineStore(*store_);
    pipelines_->InsertPipeline(PipelineRecord{"w1", "p-1", "acme/p", "u1", 100},
                               Version("p-1", 1, "RELEASED", "h1"));
    ASSERT_TRUE(pipelines_->InsertPipelineDraft(Version("p-1", 2, "DRAFT", "h2"), 1, "h1"));
    pipelines_->InsertPipeline(PipelineRecord{"w1", "p-2", "acme/q", "u1", 100},
                               Version("p-2", 1, "DRAFT", "h3"));
    pipelines_->InsertPipeline(PipelineRecord{"w2", "p-3", "acme/r", "u1", 100},
                               Version("p-3", 1, "RELEASED", "h4"));
    executions_ = OpenExecutionStore(*store_);
  }

  void TearDown() override {
    executions_.reset();
    pipelines_.reset();
    StoreSuite::TearDown();
  }

  ExecutionStore& store() { return *executions_; }

  std::vector<std::string> Ids(const ExecutionQuery& query) {
    std::vector<std::string> ids;
    for (const auto& e : store().List(query)) ids.push_back(e.id);
    return ids;
  }

  std::unique_ptr<PipelineStore> pipelines_;
  std::unique_ptr<ExecutionStore> executions_;
};

TEST_P(ExecutionStoreTest, RoundTripsEveryField) {
  ExecutionRecord e = Execution("e-1", 5000);
  e.key_id = "dpk_1";
  e.via = "mcp";
  e.correlation_id = "corr-1";
  e.idempotency_key = "idem-1";
  e.request_hash = "sha-1";
  e.parameters = {{"start_date", "2026-01-01"}, {"n", 3}};
  e.node_stats = Json::array({{{"node_id", "a"}, {"status", "RUNNING"}}});
  store().Insert(e);

  auto running = store().Find("e-1");
  ASSERT_TRUE(running);
  EXPECT_EQ(running->workspace_id, "w1");
  EXPECT_EQ(running->pipeline_id, "p-1");
  EXPECT_EQ(running->pipeline_name, "acme/p");
  EXPECT_EQ(running->pipeline_version, 1);
  EXPECT_EQ(running->version_status, "RELEASED");
  EXPECT_EQ(running->status, "RUNNING");
  EXPECT_EQ(running->triggered_by, "u1");
  EXPECT_EQ(running->key_id, "dpk_1");
  EXPECT_EQ(running->via, "mcp");
  EXPECT_EQ(running->correlation_id, "corr-1");
  EXPECT_EQ(running->instance_id, "i-live");
  EXPECT_EQ(running->parent_execution_id, "");
  EXPECT_EQ(running->parent_node_id, "");
  EXPECT_EQ(running->root_execution_id, "e-1");  // a root is its own root
  EXPECT_EQ(running->idempotency_key, "idem-1");
  EXPECT_EQ(running->request_hash, "sha-1");
  EXPECT_EQ(running->parameters, e.parameters);
  EXPECT_EQ(running->node_stats, e.node_stats);
  EXPECT_TRUE(running->error.is_null());
  EXPECT_TRUE(running->result.is_null());
  EXPECT_EQ(running->abort_reason, "");
  EXPECT_EQ(running->started_at_ms, 5000);
  EXPECT_EQ(running->finished_at_ms, 0);

  ExecutionRecord done = e;
  done.status = "FAILED";
  done.parameters = {{"start_date", "2026-01-01"}, {"n", 3}, {"current_date", "2026-09-10"}};
  done.node_stats = Json::array({{{"node_id", "a"}, {"status", "FAILED"}}});
  done.error = {{"code", "pipeline.node.failed"}, {"message", "boom"}};
  done.result = {{"result_key", "r:1"}, {"total_rows", 0}, {"expires_at_ms", 9000}};
  done.abort_reason = "";
  done.finished_at_ms = 6000;
  ASSERT_TRUE(store().Finish(done));
  auto finished = store().Find("e-1");
  ASSERT_TRUE(finished);
  EXPECT_EQ(finished->status, "FAILED");
  EXPECT_EQ(finished->parameters, done.parameters);
  EXPECT_EQ(finished->node_stats, done.node_stats);
  EXPECT_EQ(finished->error, done.error);
  EXPECT_EQ(finished->result, done.result);
  EXPECT_EQ(finished->finished_at_ms, 6000);
  EXPECT_EQ(finished->started_at_ms, 5000);  // launch facts are never rewritten
  EXPECT_EQ(finished->key_id, "dpk_1");
  EXPECT_FALSE(store().Find("nope"));
}

TEST_P(ExecutionStoreTest, InsertIsAlwaysRunningAndIdsAreUnique) {
  ExecutionRecord e = Execution("e-1", 5000);
  e.status = "SUCCESS";  // ignored: the terminal state only arrives through Finish
  e.finished_at_ms = 7000;
  store().Insert(e);
  EXPECT_EQ(store().Find("e-1")->status, "RUNNING");
  EXPECT_EQ(store().Find("e-1")->finished_at_ms, 0);
  EXPECT_THROW(store().Insert(Execution("e-1", 6000)), DuplicateKeyError);
}

TEST_P(ExecutionStoreTest, InsertRefusesAVersionThatWasNeverStored) {
  ExecutionRecord e = Execution("e-1", 5000);
  e.pipeline_version = 9;
  EXPECT_THROW(store().Insert(e), std::runtime_error);
  EXPECT_FALSE(store().Find("e-1"));
}

TEST_P(ExecutionStoreTest, ChildrenInheritTheFamilyRoot) {
  store().Insert(Execution("e-root", 1000));
  ExecutionRecord child = Execution("e-child", 1001);
  child.via = "pipeline_node";
  child.parent_execution_id = "e-root";
  child.parent_node_id = "run_leaf";
  store().Insert(child);
  ExecutionRecord grandchild = Execution("e-grand", 1002);
  grandchild.via = "pipeline_node";
  grandchild.parent_execution_id = "e-child";
  grandchild.parent_node_id = "inner";
  store().Insert(grandchild);
  EXPECT_EQ(store().Find("e-child")->root_execution_id, "e-root");
  EXPECT_EQ(store().Find("e-child")->parent_node_id, "run_leaf");
  EXPECT_EQ(store().Find("e-grand")->root_execution_id, "e-root");
  ExecutionRecord explicit_root = Execution("e-x", 1003);
  explicit_root.root_execution_id = "e-root";
  store().Insert(explicit_root);
  EXPECT_EQ(store().Find("e-x")->root_execution_id, "e-root");
}

TEST_P(ExecutionStoreTest, FinishIsCompareAndSwapOnRunning) {
  store().Insert(Execution("e-1", 5000));
  ExecutionRecord aborted = Execution("e-1", 5000);
  aborted.status = "ABORTED";
  aborted.abort_reason = "cancelled";
  aborted.finished_at_ms = 6000;
  EXPECT_TRUE(store().Finish(aborted));

  // The executor's own SUCCESS arriving after a cancel loses, and the row keeps ABORTED.
  ExecutionRecord late = Execution("e-1", 5000);
  late.status = "SUCCESS";
  late.node_stats = Json::array({{{"node_id", "late"}}});
  late.finished_at_ms = 7000;
  EXPECT_FALSE(store().Finish(late));
  auto row = store().Find("e-1");
  EXPECT_EQ(row->status, "ABORTED");
  EXPECT_EQ(row->abort_reason, "cancelled");
  EXPECT_EQ(row->finished_at_ms, 6000);

  // A progress write in flight at the finish is dropped, never overwriting the final stats.
  store().UpdateNodeStats("e-1", Json::array({{{"node_id", "stale"}}}));
  EXPECT_EQ(store().Find("e-1")->node_stats, Json::array());

  ExecutionRecord missing = late;
  missing.id = "missing";
  EXPECT_FALSE(store().Finish(missing));
  ExecutionRecord running = Execution("e-1", 5000);
  running.finished_at_ms = 7000;
  EXPECT_THROW(store().Finish(running), std::invalid_argument);  // RUNNING is not terminal
  late.finished_at_ms = 0;
  EXPECT_THROW(store().Finish(late), std::invalid_argument);
}

TEST_P(ExecutionStoreTest, NodeStatsProgressWhileRunning) {
  store().Insert(Execution("e-1", 5000));
  Json progress = Json::array({{{"node_id", "a"}, {"status", "RUNNING"}, {"rows_out", 10}}});
  store().UpdateNodeStats("e-1", progress);
  EXPECT_EQ(store().Find("e-1")->node_stats, progress);
  EXPECT_EQ(store().Find("e-1")->status, "RUNNING");
}

TEST_P(ExecutionStoreTest, ListFiltersOrdersAndPages) {
  auto insert = [&](const std::string& id, int64_t started, const std::string& pipeline,
                    int version, const std::string& user, const std::string& ws = "w1") {
    ExecutionRecord e = Execution(id, started);
    e.pipeline_id = pipeline;
    e.pipeline_version = version;
    e.version_status = version == 2 || pipeline == "p-2" ? "DRAFT" : "RELEASED";
    e.triggered_by = user;
    e.workspace_id = ws;
    store().Insert(e);
  };
  insert("e-a", 1000, "p-1", 1, "u1");
  insert("e-b", 2000, "p-1", 2, "u2");
  insert("e-c", 3000, "p-2", 1, "u1");
  insert("e-d", 3000, "p-1", 1, "u1");  // same start as e-c: id breaks the tie, descending
  insert("e-e", 4000, "p-3", 1, "u1", "w2");
  ExecutionRecord done = Execution("e-a", 1000);
  done.status = "SUCCESS";
  done.finished_at_ms = 1500;
  ASSERT_TRUE(store().Finish(done));

  ExecutionQuery all{.workspace_id = "w1"};
  EXPECT_EQ(Ids(all), (std::vector<std::string>{"e-d", "e-c", "e-b", "e-a"}));
  EXPECT_EQ(store().Count(all), 4);
  EXPECT_EQ(store().Count(ExecutionQuery{}), 5);  // "" = every workspace

  ExecutionQuery page{.workspace_id = "w1", .limit = 2, .offset = 1};
  EXPECT_EQ(Ids(page), (std::vector<std::string>{"e-c", "e-b"}));
  EXPECT_EQ(store().Count(page), 4);  // the total ignores the page
  page.offset = 4;
  EXPECT_TRUE(Ids(page).empty());

  ExecutionQuery by_pipeline{.workspace_id = "w1", .pipeline_id = "p-1"};
  EXPECT_EQ(Ids(by_pipeline), (std::vector<std::string>{"e-d", "e-b", "e-a"}));
  ExecutionQuery by_status{.workspace_id = "w1", .status = "RUNNING"};
  EXPECT_EQ(Ids(by_status), (std::vector<std::string>{"e-d", "e-c", "e-b"}));
  ExecutionQuery by_user{.workspace_id = "w1", .triggered_by = "u2"};
  EXPECT_EQ(Ids(by_user), (std::vector<std::string>{"e-b"}));
  ExecutionQuery combined{
      .workspace_id = "w1", .pipeline_id = "p-1", .status = "RUNNING", .triggered_by = "u1"};
  EXPECT_EQ(Ids(combined), (std::vector<std::string>{"e-d"}));
  EXPECT_EQ(store().Count(combined), 1);
  ExecutionQuery window{.workspace_id = "w1", .started_after_ms = 1000, .started_before_ms = 3000};
  EXPECT_EQ(Ids(window), (std::vector<std::string>{"e-b"}));  // both bounds exclusive
  EXPECT_EQ(store().Count(window), 1);
  EXPECT_EQ(Ids(ExecutionQuery{.workspace_id = "w2"}), (std::vector<std::string>{"e-e"}));
  EXPECT_THROW(store().List(ExecutionQuery{.workspace_id = "w1", .limit = -1}),
               std::invalid_argument);
}

TEST_P(ExecutionStoreTest, IdempotencyKeyLooksBackOnlyInsideItsWindow) {
  ExecutionRecord old_run = Execution("e-old", 1000);
  old_run.idempotency_key = "k1";
  old_run.request_hash = "hash-old";
  store().Insert(old_run);
  ExecutionRecord new_run = Execution("e-new", 5000);
  new_run.idempotency_key = "k1";  // reused after the first window passed
  new_run.request_hash = "hash-new";
  store().Insert(new_run);
  ExecutionRecord other_user = Execution("e-u2", 6000);
  other_user.triggered_by = "u2";
  other_user.idempotency_key = "k1";
  store().Insert(other_user);

  auto found = store().FindByIdempotencyKey("w1", "u1", "k1", 0);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->id, "e-new");  // the newest use of the key
  EXPECT_EQ(found->request_hash, "hash-new");
  EXPECT_EQ(store().FindByIdempotencyKey("w1", "u1", "k1", 5000)->id, "e-new");  // inclusive
  EXPECT_FALSE(store().FindByIdempotencyKey("w1", "u1", "k1", 5001));
  EXPECT_EQ(store().FindByIdempotencyKey("w1", "u2", "k1", 0)->id, "e-u2");
  EXPECT_FALSE(store().FindByIdempotencyKey("w2", "u1", "k1", 0));  // keys are per workspace
  EXPECT_FALSE(store().FindByIdempotencyKey("w1", "u1", "k2", 0));
}

TEST_P(ExecutionStoreTest, AbortOrphansTakesOnlyRowsOfDeadInstances) {
  auto on = [&](const std::string& id, const std::string& instance) {
    ExecutionRecord e = Execution(id, 100);
    e.instance_id = instance;
    store().Insert(e);
  };
  on("e-live", "i-live");      // the sweeping instance itself: never its own rows
  on("e-fresh", "i-fresh");    // beat at the cutoff: alive
  on("e-stale", "i-stale");    // last beat before the cutoff: gone
  on("e-silent", "i-silent");  // never beat at all: gone
  on("e-done", "i-stale");     // already terminal: keeps its outcome
  ExecutionRecord done = Execution("e-done", 100);
  done.status = "SUCCESS";
  done.finished_at_ms = 200;
  ASSERT_TRUE(store().Finish(done));
  store().Heartbeat("i-fresh", 1000);
  store().Heartbeat("i-fresh", 5000);  // an upsert: the latest beat counts
  store().Heartbeat("i-stale", 4999);

  EXPECT_EQ(store().AbortOrphans("i-live", 5000, "instance_lost", 9000), 2);
  for (const char* id : {"e-stale", "e-silent"}) {
    auto row = store().Find(id);
    EXPECT_EQ(row->status, "ABORTED") << id;
    EXPECT_EQ(row->abort_reason, "instance_lost") << id;
    EXPECT_EQ(row->error["code"], "pipeline.execution.instance_lost") << id;
    EXPECT_TRUE(row->error["message"].is_string()) << id;
    EXPECT_EQ(row->finished_at_ms, 9000) << id;
  }
  EXPECT_EQ(store().Find("e-live")->status, "RUNNING");
  EXPECT_EQ(store().Find("e-fresh")->status, "RUNNING");
  EXPECT_EQ(store().Find("e-done")->status, "SUCCESS");
  EXPECT_TRUE(store().Find("e-done")->error.is_null());
  EXPECT_EQ(store().AbortOrphans("i-live", 5000, "instance_lost", 9500), 0);  // idempotent

  // The aborted rows are terminal now: their instance's late finish loses.
  ExecutionRecord late = Execution("e-stale", 100);
  late.status = "SUCCESS";
  late.finished_at_ms = 9999;
  EXPECT_FALSE(store().Finish(late));
}

TEST_P(ExecutionStoreTest, EventsListInSeqOrderAndRefuseADuplicateSeq) {
  store().Insert(Execution("e-1", 100));
  store().Insert(Execution("e-2", 100));
  store().AppendEvent({"e-1", 2, "node_started", {{"node_id", "a"}, {"attempt", 1}}, 102});
  store().AppendEvent({"e-1", 1, "execution_started", {{"pipeline_version", 1}}, 101});
  store().AppendEvent({"e-1", 3, "node_completed", {{"node_id", "a"}, {"rows_out", 5}}, 103});
  store().AppendEvent({"e-2", 1, "execution_started", Json::object(), 104});  // seq is per run
  EXPECT_THROW(store().AppendEvent({"e-1", 2, "node_failed", Json::object(), 105}),
               DuplicateKeyError);

  auto events = store().ListEvents("e-1");
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].seq, 1);
  EXPECT_EQ(events[0].type, "execution_started");
  EXPECT_EQ(events[0].data, (Json{{"pipeline_version", 1}}));
  EXPECT_EQ(events[0].at_ms, 101);
  EXPECT_EQ(events[1].type, "node_started");  // the refused duplicate did not replace it
  EXPECT_EQ(events[2].seq, 3);
  EXPECT_EQ(events[2].data["rows_out"], 5);
  EXPECT_EQ(events[2].execution_id, "e-1");
  EXPECT_EQ(store().ListEvents("e-2").size(), 1u);
  EXPECT_TRUE(store().ListEvents("missing").empty());
}

TEST_P(ExecutionStoreTest, CheckRunsReadTheLatestPerCheck) {
  store().AppendCheckRun(CheckRun("c-1", "revenue", 1, "fail", 100));
  CheckRunRecord latest = CheckRun("c-2", "revenue", 1, "pass", 200);
  latest.message = "";
  latest.run_by = "u1";
  latest.via = "mcp";
  latest.parameters = {{"quarter", "2026Q3"}};
  latest.correlation_id = "corr-9";
  latest.duration_ms = 42;
  store().AppendCheckRun(latest);
  CheckRunRecord error = CheckRun("c-3", "rows", 1, "error", 150);
  error.message = "datasource unreachable";
  store().AppendCheckRun(error);
  store().AppendCheckRun(CheckRun("c-4", "revenue", 2, "fail", 300));  // another version

  auto runs = store().LatestCheckRuns("p-1", 1);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].check_id, "revenue");
  EXPECT_EQ(runs[0].id, "c-2");
  EXPECT_EQ(runs[0].pipeline_id, "p-1");
  EXPECT_EQ(runs[0].version, 1);
  EXPECT_EQ(runs[0].name, "Check revenue");
  EXPECT_EQ(runs[0].expected, latest.expected);
  EXPECT_EQ(runs[0].observed, latest.observed);
  EXPECT_EQ(runs[0].verdict, "pass");
  EXPECT_EQ(runs[0].run_by, "u1");
  EXPECT_EQ(runs[0].via, "mcp");
  EXPECT_EQ(runs[0].ran_at_ms, 200);
  EXPECT_EQ(runs[0].parameters, latest.parameters);
  EXPECT_EQ(runs[0].correlation_id, "corr-9");
  EXPECT_EQ(runs[0].duration_ms, 42);
  EXPECT_EQ(runs[1].check_id, "rows");
  EXPECT_EQ(runs[1].verdict, "error");
  EXPECT_TRUE(runs[1].observed.is_null());  // no value was read, none is invented
  EXPECT_EQ(runs[1].message, "datasource unreachable");
  EXPECT_EQ(runs[1].parameters, Json::object());
  EXPECT_EQ(store().LatestCheckRuns("p-1", 2).size(), 1u);
  EXPECT_TRUE(store().LatestCheckRuns("p-1", 3).empty());
  EXPECT_THROW(store().AppendCheckRun(CheckRun("c-1", "again", 1, "pass", 400)), DuplicateKeyError);
}

TEST_P(ExecutionStoreTest, APurgedDraftTakesItsExecutionsEventsAndChecks) {
  // p-1's draft v2: its runs (and a child spawned by one) go with it; v1's history stays.
  ExecutionRecord draft_run = Execution("e-draft", 100);
  draft_run.pipeline_version = 2;
  draft_run.version_status = "DRAFT";
  store().Insert(draft_run);
  ExecutionRecord child = Execution("e-child", 101);
  child.via = "pipeline_node";
  child.parent_execution_id = "e-draft";
  child.parent_node_id = "n";
  store().Insert(child);
  store().Insert(Execution("e-released", 102));
  store().AppendEvent({"e-draft", 1, "execution_started", Json::object(), 100});
  ASSERT_TRUE(pipelines_->PurgePipelineDraft("p-1", 2, "h2"));
  EXPECT_FALSE(store().Find("e-draft"));
  EXPECT_FALSE(store().Find("e-child"));
  EXPECT_TRUE(store().ListEvents("e-draft").empty());
  EXPECT_TRUE(store().Find("e-released"));

  // p-2's sole draft: the entity purge takes executions, events and check runs.
  ExecutionRecord sole = Execution("e-sole", 200);
  sole.pipeline_id = "p-2";
  sole.version_status = "DRAFT";
  store().Insert(sole);
  store().AppendEvent({"e-sole", 1, "execution_started", Json::object(), 200});
  CheckRunRecord check = CheckRun("c-sole", "rows", 1, "pass", 200);
  check.pipeline_id = "p-2";
  store().AppendCheckRun(check);
  ASSERT_TRUE(pipelines_->PurgePipeline("p-2", "h3"));
  EXPECT_FALSE(store().Find("e-sole"));
  EXPECT_TRUE(store().ListEvents("e-sole").empty());
  EXPECT_TRUE(store().LatestCheckRuns("p-2", 1).empty());
  EXPECT_EQ(store().Count(ExecutionQuery{.workspace_id = "w1"}), 1);
}

DP_STORE_SUITE_ON_EACH_BACKEND(ExecutionStoreTest);

}  // namespace
}  // namespace dp
