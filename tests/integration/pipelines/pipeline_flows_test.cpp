// The authoring lifecycle of spec §6.2.1–5 and rest-api §5 end to end over both surfaces:
// create lands a DRAFT, updates overwrite it in place or copy on write after a release, stale
// hashes conflict, explicit versions are exact, listings browse and search, derived calculator
// inputs appear on read only, and templates see their pins.
#include "datapipelines/domain/domain_error.hpp"
#include "pipeline_seed.hpp"

namespace dp::test {
namespace {

class PipelineFlows : public SeededPipelineStack,
                      public ::testing::WithParamInterface<MetadataBackend> {
 protected:
  MetadataBackend Backend() const override { return GetParam(); }

  // A tempdb stage, a calculator and a caller node over the staged table.
  static Json TwoNodeBody() {
    Json body = BaseBody();
    body["name"] = "shop/reports/top_orders";
    body["nodes"] = Json::array({{{"id", "stage"},
                                  {"type", "DQL"},
                                  {"source", "shop"},
                                  {"template", {{"id", "shop/orders.sql"}, {"version", 1}}},
                                  {"output", {{"target", "tempdb"}, {"table", "stg_orders"}}},
                                  {"depends_on", Json::array()}},
                                 {{"id", "quarter"},
                                  {"type", "CALCULATOR"},
                                  {"kind", "quarter_of_year"},
                                  {"inputs", {{"date", "$current_date"}}},
                                  {"context_key", "run_quarter"},
                                  {"depends_on", Json::array()}},
                                 {{"id", "report"},
                                  {"type", "DQL"},
                                  {"source", "tempdb"},
                                  {"template", {{"id", "shop/stage.sql"}, {"version", 1}}},
                                  {"depends_on", Json::array({"stage", "quarter"})}}});
    return body;
  }
};

TEST_P(PipelineFlows, CreateLandsADraftWithItsDerivedInputs) {
  Json created = ToolOk("alice", "pipelines_create", TwoNodeBody());
  EXPECT_EQ(created["version"], 1);
  EXPECT_EQ(created["status"], "DRAFT");
  EXPECT_TRUE(created["current_version"].is_null());
  EXPECT_EQ(created["draft"]["version"], 1);
  EXPECT_EQ(created["draft"]["body_hash"], created["body_hash"]);
  EXPECT_EQ(created["owner"], P("alice").user_id);
  EXPECT_EQ(created["parameters"]["run_quarter"],
            Json({{"type", "INTEGER"}, {"required", false}, {"derived", true}}));
  EXPECT_FALSE(created["parameters"]["min_total"].contains("derived"));
  Json got = ToolOk("alice", "pipelines_get", {{"id", created["id"]}});
  EXPECT_EQ(got["body_hash"], created["body_hash"]);
  EXPECT_EQ(got["nodes"].size(), 3u);
  // The derived entry is never stored and may not be echoed back.
  Json echo = got;
  for (const char* key : {"id", "version", "status", "owner", "created_at", "updated_at",
                          "current_version", "draft", "body_hash", "schema_version"}) {
    echo.erase(key);
  }
  echo["id"] = created["id"];
  echo["expected_hash"] = created["body_hash"];
  EXPECT_EQ(Tool("alice", "pipelines_update", echo).Code(),
            "pipeline.validation.derived_parameter_echoed");
}

TEST_P(PipelineFlows, UpdateOverwritesTheDraftThenCopiesOnWriteAfterRelease) {
  Json created = ToolOk("alice", "pipelines_create", TwoNodeBody());
  const std::string id = created["id"];
  Json edit = TwoNodeBody();
  edit["description"] = "second draft";
  edit["id"] = id;
  edit["expected_hash"] = created["body_hash"];
  Json updated = ToolOk("alice", "pipelines_update", edit);
  EXPECT_EQ(updated["version"], 1);  // the draft is overwritten in place
  EXPECT_EQ(updated["status"], "DRAFT");
  EXPECT_NE(updated["body_hash"], created["body_hash"]);

  // A stale hash conflicts and names the current state.
  edit["description"] = "stale";
  ToolOutcome stale = Tool("alice", "pipelines_update", edit);
  ASSERT_EQ(stale.Code(), "pipeline.version.conflict");
  EXPECT_EQ(stale.Details()["current_body_hash"], updated["body_hash"]);

  // Releasing is a human verb over REST, gated on the draft's hash.
  EXPECT_EQ(Rest("alice", "POST", "/api/v1/pipelines/" + id + "/release", nullptr, "bogus").Code(),
            "pipeline.version.conflict");
  RestOutcome released = Rest("alice", "POST", "/api/v1/pipelines/" + id + "/release", nullptr,
                              updated["body_hash"].get<std::string>());
  ASSERT_EQ(released.status, 409) << "the draft pins a DRAFT template: " << released.body.dump();
  EXPECT_EQ(released.Code(), "pipeline.release.template_not_released");
  ASSERT_EQ(Rest("alice", "POST", TemplatePath("shop/orders.sql", "/release")).status, 200);
  ASSERT_EQ(Rest("alice", "POST", TemplatePath("shop/stage.sql", "/release")).status, 200);
  released = Rest("alice", "POST", "/api/v1/pipelines/" + id + "/release", nullptr,
                  updated["body_hash"].get<std::string>());
  ASSERT_EQ(released.status, 200) << released.body.dump();
  EXPECT_EQ(released.body["data"]["status"], "RELEASED");
  EXPECT_EQ(released.body["data"]["current_version"], 1);
  EXPECT_FALSE(released.body["data"].contains("draft"));

  // Content equal to the release is a no-op: no version number burned.
  edit["description"] = "second draft";
  edit["expected_hash"] = updated["body_hash"];
  Json same = ToolOk("alice", "pipelines_update", edit);
  EXPECT_EQ(same["version"], 1);
  EXPECT_EQ(same["status"], "RELEASED");

  // The first real edit after a release copies on write into version 2.
  edit["description"] = "third";
  Json v2 = ToolOk("alice", "pipelines_update", edit);
  EXPECT_EQ(v2["version"], 2);
  EXPECT_EQ(v2["status"], "DRAFT");
  EXPECT_EQ(v2["current_version"], 1);
  EXPECT_EQ(ToolOk("alice", "pipelines_get", {{"id", id}})["version"], 2);
  EXPECT_EQ(ToolOk("alice", "pipelines_get", {{"id", id}, {"version", 1}})["status"], "RELEASED");
  EXPECT_EQ(Tool("alice", "pipelines_get", {{"id", id}, {"version", 3}}).Code(),
            "pipeline.not_found");
  RestOutcome versions = Rest("alice", "GET", "/api/v1/pipelines/" + id + "/versions");
  ASSERT_EQ(versions.body["data"]["items"].size(), 2u);

  // Purging the draft returns to the release; the entity stays.
  ASSERT_EQ(Rest("alice", "POST", "/api/v1/pipelines/" + id + "/draft/discard").status, 204);
  EXPECT_EQ(ToolOk("alice", "pipelines_get", {{"id", id}})["version"], 1);
  // A pipeline with a release is never purged whole.
  EXPECT_EQ(Rest("alice", "DELETE", "/api/v1/pipelines/" + id).Code(),
            "pipeline.version.last_release");
}

TEST_P(PipelineFlows, UpgradeAvailableNamesANewerReleasedTemplate) {
  Json body = ChildBody("shop/upgrades");
  LearnColumns("alice", "shop", "customers");
  Json created = ToolOk("alice", "pipelines_create", body);
  EXPECT_FALSE(created.contains("upgrade_available"));
  Json tmpl = ToolOk("alice", "templates_get", {{"id", "shop/by_region.sql"}});
  ToolOk("alice", "templates_update",
         {{"id", "shop/by_region.sql"},
          {"expected_hash", tmpl["body_hash"]},
          {"display_name", "T"},
          {"description", "t"},
          {"body", "SELECT id, region FROM customers WHERE region = :region"}});
  ASSERT_EQ(Rest("alice", "POST", TemplatePath("shop/by_region.sql", "/release")).status, 200);
  Json got = ToolOk("alice", "pipelines_get", {{"id", created["id"]}});
  ASSERT_TRUE(got.contains("upgrade_available")) << got.dump();
  EXPECT_EQ(got["upgrade_available"][0], Json({{"node", "fetch"},
                                               {"template_id", "shop/by_region.sql"},
                                               {"pinned", 1},
                                               {"latest_released", 2}}));
}

TEST_P(PipelineFlows, ListsFlatAndBrowsesOneLevel) {
  ToolOk("alice", "pipelines_create", TwoNodeBody());
  Json flat = ToolOk("alice", "pipelines_list", {{"q", "top_orders"}});
  ASSERT_EQ(flat.size(), 1u);
  EXPECT_EQ(flat[0]["name"], "shop/reports/top_orders");
  EXPECT_EQ(flat[0]["status"], "DRAFT");
  EXPECT_EQ(ToolOk("alice", "pipelines_list", {{"datasource", "shop_ro"}}).size(), 0u);
  Json roots = ToolOk("alice", "pipelines_list", {{"prefix", ""}});
  ASSERT_EQ(roots["folders"].size(), 1u);
  EXPECT_EQ(roots["folders"][0]["path"], "shop");
  EXPECT_EQ(roots["folders"][0]["pipeline_count"], 6);
  Json shop = ToolOk("alice", "pipelines_list", {{"prefix", "shop"}});
  EXPECT_EQ(shop["pipelines"].size(), 5u);
  EXPECT_EQ(shop["folders"][0]["segment"], "reports");
  EXPECT_EQ(ToolOk("alice", "pipelines_list", {{"prefix", "NOT A PATH"}})["pipelines"].size(), 0u);
  // Another workspace sees none of it, and an id resolves as not-found there.
  EXPECT_EQ(ToolOk("olga", "pipelines_list", Json::object()).size(), 0u);
  EXPECT_EQ(Tool("olga", "pipelines_get", {{"id", child_id_}}).Code(), "pipeline.not_found");
}

TEST_P(PipelineFlows, TemplatesSeeTheirPins) {
  Json used = ToolOk("alice", "templates_used_by", {{"id", "shop/by_region.sql"}, {"version", 1}});
  EXPECT_EQ(used["pipeline_count"], 2);  // shop/child and shop/child_draft
  RestOutcome refused = Rest("alice", "DELETE", TemplatePath("shop/by_region.sql"));
  EXPECT_EQ(refused.Code(), "template.in_use");
}

TEST_P(PipelineFlows, ADatasourceAPipelineUsesCannotBeDeleted) {
  Principal operator_principal;
  operator_principal.super_admin = true;
  operator_principal.via_session = true;  // the registry is for people, never keys
  operator_principal.user_id = P("alice").user_id;
  try {
    datasources_->Delete(operator_principal, "shop");
    FAIL() << "deleting a datasource pipelines use must be refused";
  } catch (const DomainError& error) {
    EXPECT_EQ(std::string(error.code().code), "datasource.in_use");
    EXPECT_FALSE(error.details()["pipelines"].empty());
  }
}

TEST_P(PipelineFlows, RestUpdateNeedsIfMatch) {
  RestOutcome created = Rest("alice", "POST", "/api/v1/pipelines", TwoNodeBody());
  ASSERT_EQ(created.status, 201);
  const std::string id = created.body["data"]["id"];
  Json edit = TwoNodeBody();
  edit["description"] = "rest edit";
  RestOutcome missing = Rest("alice", "PUT", "/api/v1/pipelines/" + id, edit);
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(missing.Details()["reason"], "precondition_missing");
  RestOutcome ok = Rest("alice", "PUT", "/api/v1/pipelines/" + id, edit,
                        created.body["data"]["body_hash"].get<std::string>());
  EXPECT_EQ(ok.status, 200) << ok.body.dump();
  EXPECT_EQ(ok.body["data"]["description"], "rest edit");
  edit["name"] = "shop/renamed";
  EXPECT_EQ(Rest("alice", "PUT", "/api/v1/pipelines/" + id, edit,
                 ok.body["data"]["body_hash"].get<std::string>())
                .Code(),
            "pipeline.validation.name_invalid");
  // A sole draft is purged whole by DELETE.
  RestOutcome purged = Rest("alice", "DELETE", "/api/v1/pipelines/" + id);
  EXPECT_EQ(purged.status, 200) << purged.body.dump();
  EXPECT_EQ(Rest("alice", "GET", "/api/v1/pipelines/" + id).Code(), "pipeline.not_found");
}

INSTANTIATE_TEST_SUITE_P(Backends, PipelineFlows,
                         ::testing::Values(MetadataBackend::kSqlite, MetadataBackend::kPostgres),
                         [](const auto& info) { return std::string(BackendName(info.param)); });

}  // namespace
}  // namespace dp::test
