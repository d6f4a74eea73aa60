#pragma once
// The shared starting state of the pipeline integration tests: templates of every shape a save
// can refuse, and released child pipelines (plus a draft one) for composition.
#include <sqlite3.h>

#include <chrono>
#include <thread>

#include "pipeline_fixture.hpp"

namespace dp::test {

class SeededPipelineStack : public PipelineStack {
 protected:
  void SetUp() override {
    PipelineStack::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SeedTemplate("shop/orders.sql", "SELECT id, total FROM orders WHERE total >= :min_total");
    SeedTemplate("shop/by_region.sql", "SELECT id FROM customers WHERE region = :region", true);
    SeedTemplate("shop/touch.sql", "UPDATE orders SET total = total WHERE id = 0", true);
    SeedTemplate("shop/pg.sql", "SELECT 1", false, "POSTGRES");
    SeedTemplate("shop/page.html", "<p>hi</p>", false, "", "html");
    SeedTemplate("shop/undefined.sql", "SELECT ${missing_var} FROM orders");
    SeedTemplate("shop/badrender.sql", "SELECT ${1/0}");
    SeedTemplate("shop/unbound.sql", "SELECT id FROM orders WHERE id = :nope");
    SeedTemplate("shop/stage.sql", "SELECT id, total FROM stg_orders");
    SeedTemplate("shop/calc_bind.sql", "SELECT id FROM orders WHERE id = :run_quarter");
    SeedTemplate("shop/customers.sql", "SELECT id FROM customers");
    child_id_ = SeedPipeline("shop/child", ChildBody("shop/child"), true);
    SeedPipeline("shop/child_draft", ChildBody("shop/child_draft"), false);
    Json etl = {{"name", "shop/etl_child"},
                {"display_name", "ETL"},
                {"description", "side effect only"},
                {"nodes", Json::array({{{"id", "touch"},
                                        {"type", "DML"},
                                        {"source", "shop"},
                                        {"template", {{"id", "shop/touch.sql"}, {"version", 1}}},
                                        {"depends_on", Json::array()}}})}};
    SeedPipeline("shop/etl_child", etl, true);
    SeedPipeline("shop/mid", Composite("shop/mid", "shop/child", {{"region", "EU"}}), true);
    SeedPipeline("shop/top", Composite("shop/top", "shop/mid", Json::object()), true);
    LearnColumns("alice", "shop", "orders");
  }

  static Json ChildBody(const std::string& name) {
    return {{"name", name},
            {"display_name", "Child"},
            {"description", "customers of a region"},
            {"parameters", {{"region", {{"type", "STRING"}, {"required", true}}}}},
            {"nodes", Json::array({{{"id", "fetch"},
                                    {"type", "DQL"},
                                    {"source", "shop"},
                                    {"template", {{"id", "shop/by_region.sql"}, {"version", 1}}},
                                    {"depends_on", Json::array()}}})}};
  }

  static Json Composite(const std::string& name, const std::string& child, const Json& inputs) {
    return {{"name", name},
            {"display_name", "Composite"},
            {"description", "runs a child"},
            {"nodes", Json::array({{{"id", "run_child"},
                                    {"type", "PIPELINE"},
                                    {"pipeline", {{"name", child}, {"version", 1}}},
                                    {"parameters", inputs},
                                    {"depends_on", Json::array()}}})}};
  }

  // The valid body refusal cases start from: one caller node over `shop`.
  static Json BaseBody() {
    return {{"name", "shop/case_pipeline"},
            {"display_name", "Case"},
            {"description", "a refusal case"},
            {"parameters",
             {{"min_total",
               {{"type", "DECIMAL"},
                {"precision", 10},
                {"scale", 2},
                {"required", false},
                {"default", 0}}}}},
            {"nodes", Json::array({{{"id", "fetch"},
                                    {"type", "DQL"},
                                    {"source", "shop"},
                                    {"template", {{"id", "shop/orders.sql"}, {"version", 1}}},
                                    {"depends_on", Json::array()}}})}};
  }

  // Creates over REST (the human surface) and optionally releases; returns the id.
  std::string SeedPipeline(const std::string& name, const Json& body, bool release) {
    RestOutcome out = Rest("alice", "POST", "/api/v1/pipelines", body);
    EXPECT_EQ(out.status, 201) << name << ": " << out.body.dump();
    std::string id = out.body["data"].value("id", "");
    if (release) {
      RestOutcome released = Rest("alice", "POST", "/api/v1/pipelines/" + id + "/release");
      EXPECT_EQ(released.status, 200) << name << ": " << released.body.dump();
    }
    return id;
  }

  // The `shop` datasource's SQLite file, written and read directly (seed rows, write-backs).
  std::string ShopPath() const { return files_.front(); }

  void ExecShop(const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_open(ShopPath().c_str(), &db);
    char* error = nullptr;
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << error;
    sqlite3_close(db);
  }

  int64_t CountShop(const std::string& table) {
    sqlite3* db = nullptr;
    sqlite3_open(ShopPath().c_str(), &db);
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(db, ("SELECT count(*) FROM " + table).c_str(), -1, &stmt, nullptr);
    int64_t n = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return n;
  }

  // The RUNNING execution `user` has of `pipeline_id` ("" for any), once the run has its
  // record; "" if none shows up within ~30 s (generous: the machine is shared).
  std::string AwaitRunning(const std::string& user, const std::string& pipeline_id = "") {
    for (int i = 0; i < 1500; ++i) {
      for (const Json& item : ToolOk(user, "executions_list", {{"status", "RUNNING"}})) {
        if (pipeline_id.empty() || item.value("pipeline_id", "") == pipeline_id) {
          return item["execution_id"];
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return "";
  }

  std::string child_id_;
};

}  // namespace dp::test
