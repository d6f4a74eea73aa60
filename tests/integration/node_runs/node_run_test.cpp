// pipelines_execute_node end to end (spec §6.2.20; pipeline-contract §13.4): one node's
// rendered SQL runs for real against its own SQLite datasource — DQL rows capped at 50, DML
// affected rows — with no execution recorded, and every refusal of §6.2.20 raised before
// anything runs.
#include <sqlite3.h>

#include <set>

#include "integration/pipelines/pipeline_seed.hpp"

namespace dp::test {
namespace {

class NodeRuns : public SeededPipelineStack {
 protected:
  void SetUp() override {
    SeededPipelineStack::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ExecShop(
        "INSERT INTO orders VALUES (1, 10, 12.50, '2026-01-05'), (2, 10, 99.00, '2026-02-11'),"
        "(3, 11, 5.25, '2026-03-01'), (4, 12, 250.00, '2026-04-20');"
        "INSERT INTO customers VALUES (10, 'EU'), (11, 'US'), (12, 'EU');");
    SeedTemplate("shop/nr/touch.sql", "UPDATE orders SET total = total + 1 WHERE id = 1", true);
    SeedTemplate("shop/nr/broken.sql", "SELECT no_such_column FROM orders", true);
    SeedTemplate("shop/nr/divide.sql", "SELECT id FROM orders WHERE id > ${100 / divisor}", true);
    SeedTemplate("shop/nr/maybe.sql", "SELECT id FROM orders<#if flag> WHERE id = :nope</#if>",
                 true);
    SeedTemplate("shop/nr/all.sql", "SELECT id, total FROM orders ORDER BY id", true);
    for (const char* id : {"shop/orders.sql", "shop/calc_bind.sql", "shop/stage.sql"}) {
      ToolOk("alice", "templates_render", {{"id", id}, {"context", Json::object()}});
    }
  }

  double TotalOf(int id) {
    sqlite3* db = nullptr;
    sqlite3_open(ShopPath().c_str(), &db);
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(db, ("SELECT total FROM orders WHERE id = " + std::to_string(id)).c_str(),
                       -1, &stmt, nullptr);
    double total = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_double(stmt, 0) : -1;
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return total;
  }

  static Json Node(const std::string& id, const std::string& type, const std::string& source,
                   const std::string& tmpl, Json depends = Json::array()) {
    return {{"id", id},
            {"type", type},
            {"source", source},
            {"template", {{"id", tmpl}, {"version", 1}}},
            {"depends_on", std::move(depends)}};
  }

  // BaseBody with `nodes` (and extra parameters), created as a DRAFT over REST.
  std::string Create(const std::string& name, Json nodes, Json parameters = Json()) {
    Json body = BaseBody();
    body["name"] = name;
    body["nodes"] = std::move(nodes);
    if (parameters.is_object()) {
      for (auto it = parameters.begin(); it != parameters.end(); ++it) {
        body["parameters"][it.key()] = it.value();
      }
    }
    return SeedPipeline(name, body, false);
  }

  ToolOutcome RunNode(const std::string& id, const std::string& node, Json parameters = Json(),
                      const std::string& user = "alice") {
    Json args{{"pipeline_id", id}, {"node_id", node}};
    if (!parameters.is_null()) args["parameters"] = std::move(parameters);
    return Tool(user, "pipelines_execute_node", std::move(args));
  }

  int64_t ExecutionCount() { return execution_store_->Count(ExecutionQuery{}); }

  // A change to the live registry entry the way an operator's edit lands (bypassing the service).
  void FlipReadonly(const std::string& name) {
    auto record = store_->Datasources().FindDatasource(name);
    ASSERT_TRUE(record);
    record->readonly = true;
    record->updated_at_ms += 1;
    ASSERT_TRUE(store_->Datasources().UpdateDatasource(*record));
  }
};

TEST_F(NodeRuns, DqlNodeReturnsDecodedRowsAndRecordsNothing) {
  const std::string id =
      Create("shop/nr/dql", Json::array({Node("fetch", "DQL", "shop", "shop/orders.sql")}));
  Json out =
      ToolOk("alice", "pipelines_execute_node",
             {{"pipeline_id", id}, {"node_id", "fetch"}, {"parameters", {{"min_total", 50}}}});
  EXPECT_EQ(out["node_id"], "fetch");
  EXPECT_EQ(out["node_type"], "DQL");
  EXPECT_EQ(out["datasource"], "shop");
  EXPECT_EQ(out["version"], 1);
  EXPECT_EQ(out["status"], "DRAFT");
  EXPECT_EQ(out["sql"], "SELECT id, total FROM orders WHERE total >= :min_total");
  EXPECT_FALSE(out.contains("sampled_parameters")) << out.dump();
  EXPECT_FALSE(out.contains("affected_rows"));
  ASSERT_EQ(out["columns"].size(), 2u) << out.dump();
  EXPECT_EQ(out["columns"][0]["name"], "id");
  EXPECT_TRUE(out["columns"][0].contains("type"));
  EXPECT_EQ(out["row_count"], 2);
  ASSERT_EQ(out["rows"].size(), 2u);
  EXPECT_EQ(out["rows"][0]["id"], 2);
  EXPECT_EQ(out["rows"][1]["id"], 4);
  EXPECT_FALSE(out["truncated"].get<bool>());
  EXPECT_TRUE(out["elapsed_ms"].is_number_integer());
  EXPECT_EQ(ExecutionCount(), 0);  // a debug query, not an execution
}

TEST_F(NodeRuns, DqlRowsAreCappedAtFifty) {
  std::string values;
  for (int i = 100; i < 160; ++i) {
    values += (values.empty() ? "" : ",") + std::string("(") + std::to_string(i) +
              ", 1, 1.0, '2026-01-01')";
  }
  ExecShop("INSERT INTO orders VALUES " + values);
  const std::string id =
      Create("shop/nr/cap", Json::array({Node("fetch", "DQL", "shop", "shop/nr/all.sql")}));
  Json out = ToolOk("alice", "pipelines_execute_node", {{"pipeline_id", id}, {"node_id", "fetch"}});
  EXPECT_EQ(out["row_count"], 50);
  EXPECT_EQ(out["rows"].size(), 50u);
  EXPECT_TRUE(out["truncated"].get<bool>());
}

TEST_F(NodeRuns, UnsuppliedRequiredParametersAreSampledAndNamed) {
  Json body = ChildBody("shop/nr/sampled");
  const std::string id = SeedPipeline("shop/nr/sampled", body, false);
  Json out = ToolOk("alice", "pipelines_execute_node", {{"pipeline_id", id}, {"node_id", "fetch"}});
  EXPECT_EQ(out["sampled_parameters"], Json::array({"region"})) << out.dump();
  EXPECT_EQ(out["sql"], "SELECT id FROM customers WHERE region = :region");
  // Supplied, it is not sampled.
  Json eu = ToolOk("alice", "pipelines_execute_node",
                   {{"pipeline_id", id}, {"node_id", "fetch"}, {"parameters", {{"region", "EU"}}}});
  EXPECT_FALSE(eu.contains("sampled_parameters"));
  EXPECT_EQ(eu["row_count"], 2);
}

TEST_F(NodeRuns, UnsuppliedCalculatorKeysAreSampledAndNamed) {
  Json nodes = Json::array({{{"id", "quarter"},
                             {"type", "CALCULATOR"},
                             {"kind", "quarter_of_year"},
                             {"inputs", {{"date", "$current_date"}}},
                             {"context_key", "run_quarter"},
                             {"depends_on", Json::array()}},
                            Node("fetch", "DQL", "shop", "shop/calc_bind.sql", {"quarter"})});
  const std::string id = Create("shop/nr/calc_bind", nodes);
  Json out = ToolOk("alice", "pipelines_execute_node", {{"pipeline_id", id}, {"node_id", "fetch"}});
  EXPECT_EQ(out["sampled_parameters"], Json::array({"run_quarter"})) << out.dump();
  Json given =
      ToolOk("alice", "pipelines_execute_node",
             {{"pipeline_id", id}, {"node_id", "fetch"}, {"parameters", {{"run_quarter", 2}}}});
  EXPECT_FALSE(given.contains("sampled_parameters"));
  EXPECT_EQ(given["rows"], Json::parse(R"([{"id": 2}])"));
}

TEST_F(NodeRuns, DmlNodeExecutesForRealAndReportsAffectedRows) {
  const std::string id =
      Create("shop/nr/dml", Json::array({Node("touch", "DML", "shop", "shop/nr/touch.sql")}));
  Json out = ToolOk("alice", "pipelines_execute_node", {{"pipeline_id", id}, {"node_id", "touch"}});
  EXPECT_EQ(out["node_type"], "DML");
  EXPECT_EQ(out["affected_rows"], 1) << out.dump();
  EXPECT_FALSE(out.contains("rows"));
  EXPECT_DOUBLE_EQ(TotalOf(1), 13.5);
  EXPECT_EQ(ExecutionCount(), 0);
}

TEST_F(NodeRuns, UnknownNodeIsNotFoundWithTheVersionSearched) {
  const std::string id =
      Create("shop/nr/unknown", Json::array({Node("fetch", "DQL", "shop", "shop/orders.sql")}));
  ToolOutcome out = RunNode(id, "fecth");
  EXPECT_EQ(out.Code(), "pipeline.node.not_found");
  EXPECT_EQ(out.Details()["node_id"], "fecth");
  EXPECT_EQ(out.Details()["version"], 1);
}

TEST_F(NodeRuns, TempdbSourceIsRefused) {
  Json stage = Node("stage", "DQL", "shop", "shop/orders.sql");
  stage["output"] = {{"target", "tempdb"}, {"table", "stg_orders"}};
  const std::string id =
      Create("shop/nr/tempdb",
             Json::array({stage, Node("report", "DQL", "tempdb", "shop/stage.sql", {"stage"})}));
  ToolOutcome out = RunNode(id, "report");
  EXPECT_EQ(out.Code(), "pipeline.node.standalone_execution_refused");
  EXPECT_EQ(out.Details()["reason"], "tempdb_source");
  // The staging node itself reads shop: it runs (its rows come back, nothing is staged).
  EXPECT_EQ(RunNode(id, "stage").Code(), "<none>");
}

TEST_F(NodeRuns, PipelineNodeIsRefused) {
  const std::string id = SeedPipeline(
      "shop/nr/composite", Composite("shop/nr/composite", "shop/child", {{"region", "EU"}}), false);
  ToolOutcome out = RunNode(id, "run_child");
  EXPECT_EQ(out.Code(), "pipeline.node.standalone_execution_refused");
  EXPECT_EQ(out.Details()["reason"], "pipeline_node");
}

TEST_F(NodeRuns, CalculatorNodeIsRefused) {
  Json nodes = Json::array({{{"id", "quarter"},
                             {"type", "CALCULATOR"},
                             {"kind", "quarter_of_year"},
                             {"inputs", {{"date", "$current_date"}}},
                             {"context_key", "run_quarter"},
                             {"depends_on", Json::array()}},
                            Node("fetch", "DQL", "shop", "shop/calc_bind.sql", {"quarter"})});
  const std::string id = Create("shop/nr/calculator", nodes);
  ToolOutcome out = RunNode(id, "quarter");
  EXPECT_EQ(out.Code(), "pipeline.node.standalone_execution_refused");
  EXPECT_EQ(out.Details()["reason"], "calculator_node");
}

TEST_F(NodeRuns, DraftTemplateChangedSinceTheLastRenderIsRefused) {
  const std::string id = Create("shop/nr/unrendered",
                                Json::array({Node("fetch", "DQL", "shop", "shop/customers.sql")}));
  ToolOutcome out = RunNode(id, "fetch");
  EXPECT_EQ(out.Code(), "pipeline.execution.template_unrendered");
  ToolOk("alice", "templates_render", {{"id", "shop/customers.sql"}, {"context", Json::object()}});
  EXPECT_EQ(RunNode(id, "fetch").Code(), "<none>");
}

TEST_F(NodeRuns, MissingPinnedTemplateIsTemplateNotFound) {
  SeedTemplate("shop/nr/doomed.sql", "SELECT id FROM orders");
  ToolOk("alice", "templates_render", {{"id", "shop/nr/doomed.sql"}, {"context", Json::object()}});
  const std::string id =
      Create("shop/nr/doomed", Json::array({Node("fetch", "DQL", "shop", "shop/nr/doomed.sql")}));
  const std::string ws = P("alice").workspace_id;
  auto version = store_->Templates().FindTemplateVersion(ws, "shop/nr/doomed.sql", 1);
  ASSERT_TRUE(version);
  // Gone behind the service's back (the service refuses a purge of a pinned template).
  ASSERT_TRUE(store_->Templates().PurgeTemplateDraft(ws, "shop/nr/doomed.sql", version->body_hash));
  EXPECT_EQ(RunNode(id, "fetch").Code(), "pipeline.node.template_not_found");
}

TEST_F(NodeRuns, RenderFailureIsTemplateRenderFailed) {
  const std::string id =
      Create("shop/nr/divide", Json::array({Node("fetch", "DQL", "shop", "shop/nr/divide.sql")}),
             {{"divisor", {{"type", "INTEGER"}, {"required", false}, {"default", 1}}}});
  EXPECT_EQ(RunNode(id, "fetch").Code(), "<none>");
  EXPECT_EQ(RunNode(id, "fetch", {{"divisor", 0}}).Code(), "pipeline.node.template_render_failed");
}

TEST_F(NodeRuns, ParametersFailingCoercionAreAllNamed) {
  const std::string id =
      Create("shop/nr/coercion", Json::array({Node("fetch", "DQL", "shop", "shop/orders.sql")}));
  ToolOutcome out = RunNode(id, "fetch", {{"min_total", "lots"}, {"bogus", 1}});
  EXPECT_EQ(out.Code(), "pipeline.execution.invalid_parameter_type");
  const Json failures = out.Details()["failures"];
  ASSERT_EQ(failures.size(), 2u) << out.payload.dump();
  std::set<std::string> named;
  for (const Json& f : failures) named.insert(f["parameter"].get<std::string>());
  EXPECT_EQ(named, (std::set<std::string>{"min_total", "bogus"}));
}

TEST_F(NodeRuns, RenderedBindTheContextLacksIsSqlParameterMissing) {
  const std::string id =
      Create("shop/nr/maybe", Json::array({Node("fetch", "DQL", "shop", "shop/nr/maybe.sql")}),
             {{"flag", {{"type", "BOOLEAN"}, {"required", false}, {"default", false}}}});
  EXPECT_EQ(RunNode(id, "fetch").Code(), "<none>");
  ToolOutcome out = RunNode(id, "fetch", {{"flag", true}});
  EXPECT_EQ(out.Code(), "pipeline.node.sql_parameter_missing");
  EXPECT_EQ(out.Details()["parameter"], "nope");
}

TEST_F(NodeRuns, DmlOnAReadonlyDatasourceIsRefused) {
  const std::string id =
      Create("shop/nr/ro", Json::array({Node("touch", "DML", "shop", "shop/nr/touch.sql")}));
  FlipReadonly("shop");
  ToolOutcome out = RunNode(id, "touch");
  EXPECT_EQ(out.Code(), "pipeline.node.datasource_readonly");
  EXPECT_DOUBLE_EQ(TotalOf(1), 12.5);  // nothing ran
}

TEST_F(NodeRuns, InvisibleDatasourceIsDatasourceNotFound) {
  const std::string id =
      Create("shop/nr/invisible", Json::array({Node("fetch", "DQL", "shop", "shop/orders.sql")}));
  ASSERT_TRUE(store_->Datasources().DeleteDatasourceGrant("shop", P("alice").workspace_id));
  ToolOutcome out = RunNode(id, "fetch");
  EXPECT_EQ(out.Code(), "datasource.not_found");
  EXPECT_EQ(out.Details()["datasource"], "shop");
}

TEST_F(NodeRuns, RefusedStatementIsQueryExecutionFailed) {
  const std::string id =
      Create("shop/nr/broken", Json::array({Node("fetch", "DQL", "shop", "shop/nr/broken.sql")}));
  EXPECT_EQ(RunNode(id, "fetch").Code(), "pipeline.node.query_execution_failed");
}

TEST_F(NodeRuns, ReadScopedKeyIsRefused) {
  const std::string id =
      Create("shop/nr/scope", Json::array({Node("fetch", "DQL", "shop", "shop/orders.sql")}));
  ToolOutcome out = RunNode(id, "fetch", Json(), "victor");
  EXPECT_TRUE(out.is_error);
  EXPECT_NE(out.Code(), "<none>");
}

TEST_F(NodeRuns, ExplicitVersionRunsThatBodyAndSaysSo) {
  const std::string id =
      Create("shop/nr/versioned", Json::array({Node("fetch", "DQL", "shop", "shop/nr/all.sql")}));
  ASSERT_EQ(Rest("alice", "POST", "/api/v1/pipelines/" + id + "/release").status, 200);
  Json out = ToolOk("alice", "pipelines_execute_node",
                    {{"pipeline_id", id}, {"node_id", "fetch"}, {"version", 1}});
  EXPECT_EQ(out["version"], 1);
  EXPECT_EQ(out["status"], "RELEASED");
  EXPECT_EQ(RunNode(id, "fetch").Code(), "<none>");
  ToolOutcome missing = Tool("alice", "pipelines_execute_node",
                             {{"pipeline_id", id}, {"node_id", "fetch"}, {"version", 9}});
  EXPECT_EQ(missing.Code(), "pipeline.execution.not_found");
}

}  // namespace
}  // namespace dp::test
