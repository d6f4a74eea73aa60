// Executions end to end over the real stack (spec §6.2.3, §6.2.13–15, §6.2.35): a pipeline runs
// through the executor against a real SQLite datasource, stages into tempdb, evaluates a
// calculator, materializes its caller result, records the execution and serves its pages; a
// failure carries its whole record; write-back, child pipelines and cancellation do what the
// contract says. On SQLite and PostgreSQL metadata.
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <thread>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/net/event_stream.hpp"
#include "datapipelines/util/crypto.hpp"

#include "integration/pipelines/pipeline_seed.hpp"

namespace dp::test {
namespace {

class ExecutionFlows : public SeededPipelineStack,
                       public ::testing::WithParamInterface<MetadataBackend> {
 protected:
  MetadataBackend Backend() const override { return GetParam(); }

  void SetUp() override {
    SeededPipelineStack::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ExecShop(
        "INSERT INTO orders VALUES (1, 10, 12.50, '2026-01-05'), (2, 10, 99.00, '2026-02-11'),"
        "(3, 11, 5.25, '2026-03-01'), (4, 12, 250.00, '2026-04-20');"
        "INSERT INTO customers VALUES (10, 'EU'), (11, 'US'), (12, 'EU');");
    SeedTemplate("shop/exec/top.sql",
                 "SELECT id, total FROM stg_orders WHERE total >= :min_total AND :run_quarter "
                 "BETWEEN 1 AND 4 ORDER BY total DESC");
    SeedTemplate("shop/exec/broken.sql", "SELECT no_such_column FROM orders");
    SeedTemplate("shop/exec/create_copy.sql",
                 "CREATE TABLE IF NOT EXISTS orders_copy (id INTEGER, total REAL)");
    SeedTemplate("shop/exec/slow.sql",
                 "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < "
                 "100000000000) SELECT count(*) FROM n");
    SeedTemplate("shop/exec/from_child.sql", "SELECT id FROM stg_child ORDER BY id");
    for (const char* id : {"shop/orders.sql", "shop/exec/top.sql", "shop/exec/broken.sql",
                           "shop/exec/create_copy.sql", "shop/exec/slow.sql",
                           "shop/exec/from_child.sql", "shop/stage.sql"}) {
      ToolOk("alice", "templates_render", {{"id", id}, {"context", Json::object()}});
    }
  }

  static Json Node(const std::string& id, const std::string& source, const std::string& tmpl,
                   Json depends = Json::array()) {
    return {{"id", id},
            {"type", "DQL"},
            {"source", source},
            {"template", {{"id", tmpl}, {"version", 1}}},
            {"depends_on", std::move(depends)}};
  }

  // stage orders → tempdb, a calculator, a caller node over the staged table binding both.
  std::string CreateReport() {
    Json body = BaseBody();
    body["name"] = "shop/exec/report";
    Json stage = Node("stage", "shop", "shop/orders.sql");
    stage["output"] = {{"target", "tempdb"}, {"table", "stg_orders"}};
    body["nodes"] =
        Json::array({stage,
                     {{"id", "quarter"},
                      {"type", "CALCULATOR"},
                      {"kind", "quarter_of_year"},
                      {"inputs", {{"date", "$current_date"}}},
                      {"context_key", "run_quarter"},
                      {"depends_on", Json::array()}},
                     Node("report", "tempdb", "shop/exec/top.sql", {"stage", "quarter"})});
    return ToolOk("alice", "pipelines_create", body)["id"];
  }

  std::string CreateSimple(const std::string& name, const std::string& tmpl) {
    Json body = BaseBody();
    body["name"] = name;
    body["nodes"] = Json::array({Node("only", "shop", tmpl)});
    return ToolOk("alice", "pipelines_create", body)["id"];
  }
};

TEST_P(ExecutionFlows, RunsStagesComputesAndPagesTheResult) {
  const std::string id = CreateReport();
  Json run =
      ToolOk("alice", "pipelines_execute", {{"id", id}, {"parameters", {{"min_total", 10}}}});
  ASSERT_EQ(run["status"], "SUCCESS") << run.dump();
  EXPECT_EQ(run["version"], 1);
  EXPECT_EQ(run["version_status"], "DRAFT");
  EXPECT_EQ(run["total_rows"], 3);
  EXPECT_EQ(run["rows"], Json::parse("[[4, 250.0], [2, 99.0], [1, 12.5]]"));
  EXPECT_EQ(run["schema"][0]["name"], "id");
  EXPECT_FALSE(run["has_more"].get<bool>());
  EXPECT_EQ(run["node_stats"].size(), 3u);
  for (const Json& s : run["node_stats"]) EXPECT_EQ(s["status"], "SUCCESS") << s.dump();
  EXPECT_EQ(run["node_stats"][0]["rows_out"], 3);  // staged
  EXPECT_EQ(run["node_stats"][1]["context_key"], "run_quarter");
  EXPECT_TRUE(run["node_stats"][1]["context_value"].is_number_integer());
  const std::string exec = run["execution_id"];

  Json got = ToolOk("alice", "executions_get", {{"execution_id", exec}});
  EXPECT_EQ(got["status"], "SUCCESS");
  EXPECT_EQ(got["parameters"]["min_total"], 10);
  EXPECT_TRUE(got["parameters"].contains("run_quarter"));  // the resolved Context
  EXPECT_TRUE(got["parameters"].contains("current_date"));
  EXPECT_EQ(got["result"]["total_rows"], 3);

  Json page = ToolOk("alice", "executions_get_result",
                     {{"execution_id", exec}, {"offset", 1}, {"limit", 1}});
  EXPECT_EQ(page["rows"], Json::parse("[[2, 99.0]]"));
  EXPECT_TRUE(page["has_more"].get<bool>());
  Json csv = ToolOk("alice", "executions_get_result", {{"execution_id", exec}, {"format", "csv"}});
  EXPECT_EQ(Base64Decode(csv["data"].get<std::string>()),
            "id,total\r\n4,250.0\r\n2,99.0\r\n1,12.5\r\n");
  RestOutcome cursor = Rest("alice", "GET", "/api/v1/executions/" + exec + "/result?limit=2");
  EXPECT_EQ(cursor.body["data"]["row_count"], 2);

  Json listed = ToolOk("alice", "executions_list", {{"pipeline_id", id}});
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0]["execution_id"], exec);
  // Another user's execution is not there: ownership on every read path.
  EXPECT_EQ(Tool("olga", "executions_get", {{"execution_id", exec}}).Code(),
            "pipeline.execution.not_found");
  EXPECT_EQ(Tool("olga", "executions_get_result", {{"execution_id", exec}}).Code(),
            "result.execution_not_found");
}

TEST_P(ExecutionFlows, AFailureCarriesItsWholeRecord) {
  const std::string id = CreateSimple("shop/exec/broken", "shop/exec/broken.sql");
  ToolOutcome out =
      Tool("alice", "pipelines_execute", {{"id", id}, {"parameters", Json::object()}});
  ASSERT_EQ(out.Code(), "pipeline.node.query_execution_failed") << out.payload.dump();
  const Json& e = out.payload["error"];
  EXPECT_EQ(e["status"], "FAILED");
  EXPECT_EQ(e["failed_node_id"], "only");
  EXPECT_EQ(e["node"]["datasource"], "shop");
  EXPECT_EQ(e["node"]["dialect"], "SQLITE");
  EXPECT_EQ(e["node"]["template"], "shop/exec/broken.sql");
  EXPECT_EQ(e["sql"], "SELECT no_such_column FROM orders");
  ASSERT_FALSE(e["exception"]["caused_by"].empty());
  EXPECT_NE(e["exception"]["caused_by"].back()["message"].get<std::string>().find("no_such_column"),
            std::string::npos);
  EXPECT_FALSE(e["correlation_id"].get<std::string>().empty());
  Json got = ToolOk("alice", "executions_get", {{"execution_id", e["execution_id"]}});
  EXPECT_EQ(got["status"], "FAILED");
  EXPECT_EQ(got["error"]["code"], "pipeline.node.query_execution_failed");
  EXPECT_EQ(Tool("alice", "executions_get_result", {{"execution_id", e["execution_id"]}}).Code(),
            "result.execution_failed");
}

TEST_P(ExecutionFlows, ParametersAreCoercedStrictlyBeforeAnythingRuns) {
  const std::string id = CreateReport();
  ToolOutcome wrong =
      Tool("alice", "pipelines_execute", {{"id", id}, {"parameters", {{"min_total", "ten"}}}});
  EXPECT_EQ(wrong.Code(), "pipeline.execution.invalid_parameter_type");
  EXPECT_EQ(wrong.Details()["failures"][0]["parameter"], "min_total");
  ToolOutcome unknown =
      Tool("alice", "pipelines_execute", {{"id", id}, {"parameters", {{"nope", 1}}}});
  EXPECT_EQ(unknown.Code(), "pipeline.execution.invalid_parameter_type");
  EXPECT_EQ(ToolOk("alice", "executions_list", {{"pipeline_id", id}}).size(), 0u);
  // A supplied calculator key skips its node.
  Json run =
      ToolOk("alice", "pipelines_execute", {{"id", id}, {"parameters", {{"run_quarter", 2}}}});
  EXPECT_EQ(run["node_stats"][1]["provided_by"], "caller");
  EXPECT_EQ(run["node_stats"][1]["context_value"], 2);
  EXPECT_EQ(Tool("alice", "pipelines_execute",
                 {{"id", id}, {"version", 9}, {"parameters", Json::object()}})
                .Code(),
            "pipeline.execution.not_found");
}

TEST_P(ExecutionFlows, WritesBackInOneTransaction) {
  Json body = BaseBody();
  body["name"] = "shop/exec/writeback";
  Json ddl = Node("create", "shop", "shop/exec/create_copy.sql");
  ddl["type"] = "DDL";
  Json copy = Node("copy", "shop", "shop/orders.sql", {"create"});
  copy["output"] = {{"target", "datasource"},
                    {"datasource", "shop"},
                    {"table", "orders_copy"},
                    {"mode", "replace"}};
  body["nodes"] = Json::array({ddl, copy});
  const std::string id = ToolOk("alice", "pipelines_create", body)["id"];
  Json run = ToolOk("alice", "pipelines_execute", {{"id", id}, {"parameters", Json::object()}});
  ASSERT_EQ(run["status"], "SUCCESS") << run.dump();
  EXPECT_FALSE(run.contains("rows"));  // no caller node: stats only
  EXPECT_EQ(run["node_stats"][1]["rows_out"], 4);
  EXPECT_EQ(CountShop("orders_copy"), 4);
  ToolOk("alice", "pipelines_execute", {{"id", id}, {"parameters", Json::object()}});
  EXPECT_EQ(CountShop("orders_copy"), 4);  // replace, not append
}

TEST_P(ExecutionFlows, APipelineNodeRunsItsChildAsAnExecutionOfItsOwn) {
  Json body = BaseBody();
  body["name"] = "shop/exec/parent";
  body["nodes"] = Json::array({{{"id", "child"},
                                {"type", "PIPELINE"},
                                {"pipeline", {{"name", "shop/child"}, {"version", 1}}},
                                {"parameters", {{"region", "EU"}}},
                                {"output", {{"target", "tempdb"}, {"table", "stg_child"}}},
                                {"depends_on", Json::array()}},
                               Node("read", "tempdb", "shop/exec/from_child.sql", {"child"})});
  const std::string id = ToolOk("alice", "pipelines_create", body)["id"];
  Json run = ToolOk("alice", "pipelines_execute", {{"id", id}, {"parameters", Json::object()}});
  ASSERT_EQ(run["status"], "SUCCESS") << run.dump();
  EXPECT_EQ(run["rows"], Json::parse("[[10], [12]]"));
  const std::string child = run["node_stats"][0]["child_execution_id"];
  Json got = ToolOk("alice", "executions_get", {{"execution_id", child}});
  EXPECT_EQ(got["status"], "SUCCESS");
  EXPECT_EQ(got["parent_execution_id"], run["execution_id"]);
  EXPECT_EQ(got["via"], "pipeline_node");
}

// resources/list's execution kind (spec §7.3): the caller's own runs of the last 24 hours, by
// id; an older run or another user's is not listed, and the older one still reads by id.
TEST_P(ExecutionFlows, TheResourceListingIsTheLastDayOfTheCallersOwnRuns) {
  const std::string id = CreateSimple("shop/exec/listed", "shop/orders.sql");
  std::vector<std::string> recent;
  for (int i = 0; i < 3; ++i) {
    recent.push_back(ToolOk("alice", "pipelines_execute",
                            {{"id", id}, {"parameters", Json::object()}})["execution_id"]);
  }
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  auto insert = [&](const std::string& user, int64_t started_at_ms) {
    ExecutionRecord record;
    record.id = NewUuid();
    record.workspace_id = P(user).workspace_id;
    record.pipeline_id = id;
    record.pipeline_name = "shop/exec/listed";
    record.pipeline_version = 1;
    record.version_status = "DRAFT";
    record.status = "SUCCESS";
    record.triggered_by = P(user).user_id;
    record.via = "mcp";
    record.correlation_id = NewUuid();
    record.started_at_ms = started_at_ms;
    record.finished_at_ms = started_at_ms + 5;
    execution_store_->Insert(record);
    return record.id;
  };
  const std::string old = insert("alice", now - 25LL * 3600 * 1000);
  const std::string edge = insert("alice", now - 23LL * 3600 * 1000);
  const std::string victors = insert("victor", now - 1000);
  recent.push_back(edge);
  std::sort(recent.begin(), recent.end());
  std::vector<std::string> listed;
  for (const Json& item : executions_->ListForResources(P("alice"))) {
    listed.push_back(item["execution_id"]);
  }
  EXPECT_EQ(listed, recent);
  EXPECT_EQ(ToolOk("alice", "executions_get", {{"execution_id", old}})["execution_id"], old);
  Json victor = executions_->ListForResources(P("victor"));
  ASSERT_EQ(victor.size(), 1u) << victor.dump();
  EXPECT_EQ(victor[0]["execution_id"], victors);
  EXPECT_EQ(executions_->ListForResources(P("olga")).size(), 0u);
}

// issue 17: started_after / started_before go through the store's query, so the total and the
// pages count matching runs only (REST's list and the UI's history share ExecutionListQuery).
TEST_P(ExecutionFlows, TheTimeFilterIsTheStoresQueryAndPagesCorrectly) {
  const std::string id = CreateSimple("shop/exec/windowed", "shop/orders.sql");
  const int64_t base = ExecutionListQuery::ParseTimeBound("2001-02-03T04:05:06Z", "t");
  EXPECT_EQ(ExecutionListQuery::ParseTimeBound("2001-02-03T04:05:06.250Z", "t"), base + 250);
  EXPECT_EQ(ExecutionListQuery::ParseTimeBound("2001-02-03T04:05:06.5Z", "t"), base + 500);
  for (const char* bad :
       {"", "yesterday", "2001-02-03", "2001-02-03T04:05:06", "2001-02-03T04:05:06.Z",
        "2001-02-03T04:05:06.1234Z", "2001-02-03T04:05:06.x1Z"}) {
    try {
      ExecutionListQuery::ParseTimeBound(bad, "started_after");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const DomainError& error) {
      EXPECT_EQ(error.code().code, "request.validation.invalid") << bad;
      EXPECT_EQ(error.details()["field"], "started_after") << bad;
    }
  }
  std::vector<std::string> ids;  // one run a minute, oldest first
  for (int i = 0; i < 6; ++i) {
    ExecutionRecord record;
    record.id = NewUuid();
    record.workspace_id = P("alice").workspace_id;
    record.pipeline_id = id;
    record.pipeline_name = "shop/exec/windowed";
    record.pipeline_version = 1;
    record.version_status = "DRAFT";
    record.status = "SUCCESS";
    record.triggered_by = P("alice").user_id;
    record.via = "mcp";
    record.correlation_id = NewUuid();
    record.started_at_ms = base + i * 60'000;
    record.finished_at_ms = record.started_at_ms + 5;
    execution_store_->Insert(record);
    ids.push_back(record.id);
  }
  ExecutionListQuery query;
  query.pipeline_id = id;
  query.started_after_ms = base;                // exclusive: run 0 is out
  query.started_before_ms = base + 5 * 60'000;  // exclusive: run 5 is out
  query.window.limit = 3;
  Json first = executions_->List(P("alice"), query);
  EXPECT_EQ(first["total"], 4);
  EXPECT_EQ(first["has_more"], true);
  std::vector<std::string> seen;
  for (const Json& item : first["items"]) seen.push_back(item["execution_id"]);
  query.window.offset = 3;
  Json second = executions_->List(P("alice"), query);
  EXPECT_EQ(second["total"], 4);
  EXPECT_EQ(second["has_more"], false);
  for (const Json& item : second["items"]) seen.push_back(item["execution_id"]);
  EXPECT_EQ(seen, (std::vector<std::string>{ids[4], ids[3], ids[2], ids[1]}));  // newest first
}

TEST_P(ExecutionFlows, CancelStopsARunningExecutionUnderTheSameCredentialRule) {
  const std::string id = CreateSimple("shop/exec/slow", "shop/exec/slow.sql");
  auto running = std::async(std::launch::async, [&] {
    return Tool("alice", "pipelines_execute", {{"id", id}, {"parameters", Json::object()}});
  });
  const std::string exec = AwaitRunning("alice", id);
  ASSERT_FALSE(exec.empty());
  // Another key of another user cannot see it; a REST-started one is refused over MCP below.
  EXPECT_EQ(Tool("olga", "executions_cancel", {{"execution_id", exec}}).Code(),
            "pipeline.execution.not_found");
  EXPECT_EQ(ToolOk("alice", "executions_cancel", {{"execution_id", exec}})["status"],
            "cancellation_requested");
  ToolOutcome out = running.get();
  EXPECT_EQ(out.Code(), "pipeline.execution.aborted") << out.payload.dump();
  Json got = ToolOk("alice", "executions_get", {{"execution_id", exec}});
  EXPECT_EQ(got["status"], "ABORTED");
  EXPECT_FALSE(got["abort_reason"].get<std::string>().empty());
  EXPECT_EQ(Tool("alice", "executions_cancel", {{"execution_id", exec}}).Code(),
            "pipeline.execution.not_running");
}

TEST_P(ExecutionFlows, McpCancelRefusesARestStartedExecution) {
  const std::string id = CreateSimple("shop/exec/slow_rest", "shop/exec/slow.sql");
  auto running = std::async(std::launch::async, [&] {
    return Rest("alice", "POST", "/api/v1/pipelines/" + id + "/execute", Json::object());
  });
  const std::string exec = AwaitRunning("alice", id);
  ASSERT_FALSE(exec.empty());
  ToolOutcome refused = Tool("alice", "executions_cancel", {{"execution_id", exec}});
  EXPECT_EQ(refused.Code(), "auth.scope.insufficient");
  EXPECT_EQ(refused.Details()["reason"], "started_outside_mcp");
  EXPECT_EQ(Rest("alice", "DELETE", "/api/v1/executions/" + exec).status, 202);
  RestOutcome out = running.get();
  EXPECT_EQ(out.Code(), "pipeline.execution.aborted");
}

TEST_P(ExecutionFlows, ADraftPinningAnUnrenderedDraftTemplateIsRefusedOverMcp) {
  const std::string id = CreateReport();
  Json tmpl = ToolOk("alice", "templates_get", {{"id", "shop/exec/top.sql"}});
  ToolOk("alice", "templates_update",
         {{"id", "shop/exec/top.sql"},
          {"expected_hash", tmpl["body_hash"]},
          {"display_name", "T"},
          {"description", "edited"},
          {"body", tmpl["body"]}});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ToolOk("alice", "templates_update",
         {{"id", "shop/exec/top.sql"},
          {"expected_hash",
           ToolOk("alice", "templates_get", {{"id", "shop/exec/top.sql"}})["body_hash"]},
          {"display_name", "T"},
          {"description", "edited twice"},
          {"body", tmpl["body"]}});
  ToolOutcome refused =
      Tool("alice", "pipelines_execute", {{"id", id}, {"parameters", Json::object()}});
  EXPECT_EQ(refused.Code(), "pipeline.execution.template_unrendered");
  EXPECT_EQ(refused.Details()["templates"][0]["id"], "shop/exec/top.sql");
  // REST is a person's surface: not checked.
  EXPECT_EQ(Rest("alice", "POST", "/api/v1/pipelines/" + id + "/execute", Json::object()).status,
            200);
  ToolOk("alice", "templates_render", {{"id", "shop/exec/top.sql"}, {"context", Json::object()}});
  EXPECT_EQ(
      ToolOk("alice", "pipelines_execute", {{"id", id}, {"parameters", Json::object()}})["status"],
      "SUCCESS");
}

// A cancel taken by another instance reaches the one running the execution (through the row).
TEST_P(ExecutionFlows, ACancelTakenByAnotherInstanceStopsTheRun) {
  const std::string id = CreateSimple("shop/exec/slow_remote", "shop/exec/slow.sql");
  executions_->Start();  // polls this instance's rows for cancel requests each second
  ExecutionService other(*store_, *execution_store_, *results_, *audit_, *audit_reader_,
                         *pipelines_, *templates_, *datasources_, ExecutionServiceOptions{});
  auto running = std::async(std::launch::async, [&] {
    return Tool("alice", "pipelines_execute", {{"id", id}, {"parameters", Json::object()}});
  });
  const std::string exec = AwaitRunning("alice", id);
  ASSERT_FALSE(exec.empty());
  EXPECT_EQ(other.Cancel(P("alice"), exec, ExecutionSurface::kHuman)["status"],
            "cancellation_requested");
  ToolOutcome out = running.get();
  EXPECT_EQ(out.Code(), "pipeline.execution.aborted") << out.payload.dump();
  EXPECT_EQ(ToolOk("alice", "executions_get", {{"execution_id", exec}})["status"], "ABORTED");
}

// The REST execute as an event stream (rest-api §6) and its Idempotency-Key (§3.5).
TEST_P(ExecutionFlows, RestStreamsTheEventsAndHonoursIdempotencyKeys) {
  const std::string id = CreateReport();
  auto post = [&](const std::string& key, const Json& body, bool stream) {
    HttpRequest request;
    request.method = "POST";
    request.path = request.target = "/api/v1/pipelines/" + id + "/execute";
    request.body = body.dump();
    request.headers.Add("DP-API-Key", keys_.at("alice"));
    request.headers.Add("Idempotency-Key", key);
    if (stream) request.headers.Add("Accept", "text/event-stream");
    request.remote_ip = "127.0.0.1";
    request.correlation_id = "rest-stream-" + std::to_string(++calls_);
    return rest_->HandleApi(request);
  };
  const Json body{{"parameters", {{"min_total", 10}}}};
  HttpResponse streamed = post("key-1", body, true);
  ASSERT_TRUE(streamed.stream) << streamed.body;
  std::string text;
  for (bool closed = false; !closed;) {
    for (auto& chunk : streamed.stream->Drain(closed)) text += chunk;
    if (!closed) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  std::vector<std::string> order;
  for (const char* type : {"execution_started", "node_started", "node_completed", "data_ready",
                           "pipeline_completed"}) {
    size_t at = text.find(std::string("event: ") + type);
    ASSERT_NE(at, std::string::npos) << type << " in\n" << text;
  }
  EXPECT_LT(text.find("event: data_ready"), text.find("event: pipeline_completed"));
  const size_t at = text.find("\"execution_id\":\"") + 16;
  const std::string exec = text.substr(at, 36);
  // The same key and body: the same execution, not a second run.
  HttpResponse again = post("key-1", body, false);
  EXPECT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(Json::parse(again.body)["data"]["execution_id"], exec);
  EXPECT_EQ(ToolOk("alice", "executions_list", {{"pipeline_id", id}}).size(), 1u);
  // The same key with another body is refused.
  HttpResponse reused = post("key-1", Json{{"parameters", {{"min_total", 20}}}}, false);
  EXPECT_EQ(reused.status, 409);
  EXPECT_EQ(Json::parse(reused.body)["error"]["code"],
            "idempotency.key_reused_for_different_request");
  // A refusal before the first event keeps its status, even when a stream was asked for.
  HttpResponse refused = post("key-2", Json{{"parameters", {{"min_total", "x"}}}}, true);
  EXPECT_FALSE(refused.stream);
  EXPECT_EQ(refused.status, 400);
}

INSTANTIATE_TEST_SUITE_P(Backends, ExecutionFlows,
                         ::testing::Values(MetadataBackend::kSqlite, MetadataBackend::kPostgres),
                         [](const auto& info) { return std::string(BackendName(info.param)); });

}  // namespace
}  // namespace dp::test
