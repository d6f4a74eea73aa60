// The learned-fact lifecycle on both metadata backends: record → read inline by another key →
// supersede → retire; drift demoted at read and written back; the facts/definitions blocks;
// cross-workspace provenance; conflicts; the REST twins; the audit rows.
#include "semantics_fixture.hpp"

namespace dp::test {
namespace {

using SemanticsFlows = BackendSemanticsStack;

TEST_P(SemanticsFlows, RecordedFactRidesOnItsColumnForAnotherKey) {
  Json fact = RecordUnit("alice", "temp_c is already in the unit named by unit — never tenths");
  EXPECT_EQ(fact["trust"], "observed");
  EXPECT_EQ(fact["evidence_summary"], "unit=C, temp_c=21.4 | unit=C, temp_c=20.9");
  EXPECT_EQ(fact["recorded_via"], "mcp");
  EXPECT_EQ(fact["from_this_workspace"], true);
  EXPECT_EQ(fact["refs"], Json::parse(R"([{"schema":null,"table":"weather","column":"temp_c"}])"));

  // bob is another key of the same workspace: a fresh session reads it beside the column.
  Json columns = ToolOk("bob", "datasources_get_columns", {{"name", "lab"}, {"table", "weather"}});
  Json facts = ColumnFacts(columns, "temp_c");
  ASSERT_EQ(facts.size(), 1u) << columns.dump();
  EXPECT_EQ(facts[0]["id"], fact["id"]);
  EXPECT_EQ(facts[0]["trust"], "observed");
  EXPECT_FALSE(facts[0].contains("refs")) << "the inline block is the summary shape";
  EXPECT_FALSE(ColumnFacts(columns, "unit").is_array() && !ColumnFacts(columns, "unit").empty());
  for (const auto& column : columns) {
    if (column["name"] != "temp_c") {
      EXPECT_FALSE(column.contains("facts")) << column.dump();
    }
  }
}

TEST_P(SemanticsFlows, SupersedeThenRetire) {
  Json first = RecordUnit("alice", "temp_c is in tenths of a degree Celsius", false);
  EXPECT_EQ(first["trust"], "asserted");
  Json second = ToolOk("bob", "semantics_record",
                       {{"scope", "DATASOURCE"},
                        {"datasource", "lab"},
                        {"kind", "unit"},
                        {"fact", "temp_c is whole degrees Celsius, not tenths"},
                        {"refs", Json::array({{{"table", "weather"}, {"column", "temp_c"}}})},
                        {"evidence_sql", "SELECT MAX(temp_c) AS hottest FROM weather"},
                        {"supersedes", first["id"]}});
  EXPECT_EQ(second["supersedes"], first["id"]);
  Json facts = ColumnFacts(
      ToolOk("alice", "datasources_get_columns", {{"name", "lab"}, {"table", "weather"}}),
      "temp_c");
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_EQ(facts[0]["id"], second["id"]);
  Json all = ToolOk("alice", "semantics_list", {{"datasource", "lab"}, {"include_retired", true}});
  ASSERT_EQ(all["count"], 2);
  // Both were recorded within the same millisecond or two: find the retired one by id, not by
  // its place in the listing.
  const Json& superseded = all["facts"][0]["id"] == first["id"] ? all["facts"][0] : all["facts"][1];
  EXPECT_EQ(superseded["id"], first["id"]);
  EXPECT_EQ(superseded["trust"], "retired");
  EXPECT_EQ(superseded["retired_reason"], "superseded");
  EXPECT_TRUE(superseded.contains("retired_at"));
  EXPECT_EQ(ToolOk("alice", "semantics_list", {{"datasource", "lab"}})["count"], 1);

  Json retired = ToolOk("alice", "semantics_retire",
                        {{"id", second["id"]}, {"reason", "the feed changed its unit"}});
  EXPECT_EQ(retired["trust"], "retired");
  EXPECT_EQ(retired["retired_reason"], "the feed changed its unit");
  EXPECT_TRUE(ColumnFacts(ToolOk("alice", "datasources_get_columns",
                                 {{"name", "lab"}, {"table", "weather"}}),
                          "temp_c")
                  .empty());
  EXPECT_EQ(ToolOk("alice", "semantics_list", {{"datasource", "lab"}})["count"], 0);
  // Retired is a state: the row stays, listed on request.
  EXPECT_EQ(ToolOk("alice", "semantics_list",
                   {{"datasource", "lab"}, {"include_retired", true}})["count"],
            2);
}

TEST_P(SemanticsFlows, DroppedColumnMakesTheFactStaleAndTheMarkIsWrittenBack) {
  Json fact = RecordUnit("alice", "temp_c is already in the unit named by unit");
  ExecLab("ALTER TABLE weather DROP COLUMN temp_c");
  Json columns = ToolOk("bob", "datasources_get_columns", {{"name", "lab"}, {"table", "weather"}});
  EXPECT_TRUE(ColumnFacts(columns, "temp_c").is_null()) << "the column is gone";
  // Written back: the next reader (and semantics_list, which reads no columns) sees stale.
  Json listed = ToolOk("alice", "semantics_list", {{"datasource", "lab"}});
  ASSERT_EQ(listed["count"], 1);
  EXPECT_EQ(listed["facts"][0]["trust"], "stale");
  EXPECT_EQ(listed["facts"][0]["drift"], "column temp_c no longer exists");
  // A stale fact rides on its table's entry in the tables listing.
  Json tables = ToolOk("alice", "datasources_get_tables", {{"name", "lab"}});
  Json on_table = TableFacts(tables, "weather");
  ASSERT_EQ(on_table.size(), 1u) << tables.dump();
  EXPECT_EQ(on_table[0]["id"], fact["id"]);
  EXPECT_EQ(on_table[0]["trust"], "stale");
  // One-way: re-adding the column does not promote it back.
  ExecLab("ALTER TABLE weather ADD COLUMN temp_c REAL");
  ToolOk("alice", "datasources_get_columns", {{"name", "lab"}, {"table", "weather"}});
  EXPECT_EQ(ToolOk("alice", "semantics_list", {{"datasource", "lab"}})["facts"][0]["trust"],
            "stale");
}

TEST_P(SemanticsFlows, ChangedColumnSetAroundAResolvingRefNeedsReview) {
  RecordUnit("alice", "temp_c is already in the unit named by unit");
  ExecLab("ALTER TABLE weather ADD COLUMN humidity REAL");
  Json facts = ColumnFacts(
      ToolOk("alice", "datasources_get_columns", {{"name", "lab"}, {"table", "weather"}}),
      "temp_c");
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_EQ(facts[0]["trust"], "needs_review");
  EXPECT_EQ(facts[0]["drift"], "table columns changed since this was recorded");
  // Another table's columns say nothing about this fact.
  ToolOk("alice", "datasources_get_columns", {{"name", "lab"}, {"table", "zones"}});
  EXPECT_EQ(ToolOk("alice", "semantics_list", {{"datasource", "lab"}})["facts"][0]["trust"],
            "needs_review");
}

TEST_P(SemanticsFlows, OnlyACompleteTablesListingMarksADroppedTable) {
  ToolOk("alice", "semantics_record",
         {{"scope", "DATASOURCE"},
          {"datasource", "lab"},
          {"kind", "grain"},
          {"fact", "one row per zone, keyed by id"},
          {"refs", Json::array({{{"table", "zones"}}})}});
  Json tables = ToolOk("alice", "datasources_get_tables", {{"name", "lab"}});
  Json grain = TableFacts(tables, "zones");
  ASSERT_EQ(grain.size(), 1u) << tables.dump();
  EXPECT_EQ(grain[0]["kind"], "grain");
  ExecLab("DROP TABLE zones");
  // A filtered listing proves nothing about what it did not list.
  ToolOk("alice", "datasources_get_tables", {{"name", "lab"}, {"namespace", Json::array({"x"})}});
  EXPECT_EQ(ToolOk("alice", "semantics_list", {{"datasource", "lab"}})["facts"][0]["trust"],
            "asserted");
  ToolOk("alice", "datasources_get_tables", {{"name", "lab"}});
  Json listed = ToolOk("alice", "semantics_list", {{"datasource", "lab"}});
  EXPECT_EQ(listed["facts"][0]["trust"], "stale");
  EXPECT_EQ(listed["facts"][0]["drift"], "table zones no longer exists");
}

TEST_P(SemanticsFlows, ColumnsReadOfAGoneTableMarksItsFactsStale) {
  RecordUnit("alice", "temp_c is already in the unit named by unit");
  ExecLab("DROP TABLE weather");
  ToolOutcome out =
      Tool("alice", "datasources_get_columns", {{"name", "lab"}, {"table", "weather"}});
  EXPECT_EQ(out.Code(), "datasource.table_not_found");
  EXPECT_EQ(ToolOk("alice", "semantics_list", {{"datasource", "lab"}})["facts"][0]["trust"],
            "stale");
}

TEST_P(SemanticsFlows, DatasourceWideFactsAndWorkspaceDefinitions) {
  Json empty = ToolOk("alice", "datasources_get", {{"name", "lab"}});
  EXPECT_EQ(empty["facts"], Json::array());
  EXPECT_EQ(empty["definitions"], Json::array());
  Json window = ToolOk("alice", "semantics_record",
                       {{"scope", "DATASOURCE"},
                        {"datasource", "lab"},
                        {"kind", "window"},
                        {"fact", "weather covers 2024-01-01 only, hourly"},
                        {"refs", Json::array({{{"table", "weather"}}})}});
  Json rule = ToolOk("alice", "semantics_record",
                     {{"scope", "WORKSPACE"},
                      {"datasource", "lab"},
                      {"kind", "definition"},
                      {"fact", "a hot day is a day whose peak temperature exceeds 30 C"}});
  EXPECT_EQ(rule["refs"], Json::array());
  Json got = ToolOk("bob", "datasources_get", {{"name", "lab"}});
  ASSERT_EQ(got["facts"].size(), 1u);
  EXPECT_EQ(got["facts"][0]["id"], window["id"]);
  ASSERT_EQ(got["definitions"].size(), 1u);
  EXPECT_EQ(got["definitions"][0]["id"], rule["id"]);
  EXPECT_EQ(got["definitions"][0]["scope"], "WORKSPACE");
  Json list = ToolOk("bob", "datasources_list", {});
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["facts"], got["facts"]);
  EXPECT_EQ(list[0]["definitions"], got["definitions"]);
  // The other workspace sees the datasource's fact, never this workspace's rule.
  Json theirs = ToolOk("olga", "datasources_get", {{"name", "lab"}});
  EXPECT_EQ(theirs["facts"].size(), 1u);
  EXPECT_EQ(theirs["facts"][0]["from_this_workspace"], false);
  EXPECT_EQ(theirs["definitions"], Json::array());
  EXPECT_EQ(ToolOk("olga", "semantics_list", {{"datasource", "lab"}})["count"], 1);
  EXPECT_EQ(Tool("olga", "semantics_retire", {{"id", rule["id"]}, {"reason", "not ours"}}).Code(),
            "semantics.not_found");
}

TEST_P(SemanticsFlows, ProvenanceStopsAtTheReadersVisibility) {
  std::string pipeline = SeedPipeline("default", "lab/weather_daily");
  Json fact = ToolOk("alice", "semantics_record",
                     {{"scope", "DATASOURCE"},
                      {"datasource", "lab"},
                      {"kind", "caveat"},
                      {"fact", "ts is ISO-8601 text; cast before comparing"},
                      {"refs", Json::array({{{"table", "weather"}, {"column", "ts"}}})},
                      {"source_pipeline_id", pipeline},
                      {"source_version", 1}});
  EXPECT_EQ(fact["source_pipeline"], (Json{{"id", pipeline}, {"name", "lab/weather_daily"}}));
  EXPECT_EQ(fact["source_version"], 1);
  Json mine = ColumnFacts(
      ToolOk("bob", "datasources_get_columns", {{"name", "lab"}, {"table", "weather"}}), "ts");
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(mine[0]["source_pipeline"]["name"], "lab/weather_daily");
  Json theirs = ColumnFacts(
      ToolOk("olga", "datasources_get_columns", {{"name", "lab"}, {"table", "weather"}}), "ts");
  ASSERT_EQ(theirs.size(), 1u);
  EXPECT_FALSE(theirs[0].contains("source_pipeline"));
  EXPECT_EQ(theirs[0]["from_this_workspace"], false);
  // Retiring what another workspace established needs that workspace's admin.
  ToolOutcome refused = Tool("olga", "semantics_retire", {{"id", fact["id"]}, {"reason", "wrong"}});
  EXPECT_EQ(refused.Code(), "auth.role_required");
  EXPECT_EQ(refused.Details()["required"], "ws_admin");
  Json retired = ToolOk("wendy", "semantics_retire", {{"id", fact["id"]}, {"reason", "wrong"}});
  EXPECT_EQ(retired["trust"], "retired");
  auto rows = store_->Audit().ListAudit("semantics.retired", 10);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].details["recorded_in_this_workspace"], false);
  EXPECT_EQ(rows[0].details["reason"], "wrong");
}

TEST_P(SemanticsFlows, ConflictingFactsAreBothServedAndFlagged) {
  Json a = RecordUnit("alice", "temp_c is degrees Celsius", false);
  Json b = RecordUnit("olga", "temp_c is degrees Fahrenheit", false);
  Json facts = ColumnFacts(
      ToolOk("bob", "datasources_get_columns", {{"name", "lab"}, {"table", "weather"}}), "temp_c");
  ASSERT_EQ(facts.size(), 2u);
  EXPECT_EQ(facts[0]["conflict"], true);
  EXPECT_EQ(facts[1]["conflict"], true);
  ToolOk("alice", "semantics_retire", {{"id", a["id"]}, {"reason", "olga measured it"}});
  facts = ColumnFacts(
      ToolOk("bob", "datasources_get_columns", {{"name", "lab"}, {"table", "weather"}}), "temp_c");
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_FALSE(facts[0].contains("conflict"));
}

TEST_P(SemanticsFlows, RestTwinsCarryTheIdenticalBlocks) {
  RecordUnit("alice", "temp_c is already in the unit named by unit");
  ToolOk("alice", "semantics_record",
         {{"scope", "DATASOURCE"},
          {"datasource", "lab"},
          {"kind", "sampling"},
          {"fact", "weather is every hour, never a sample"},
          {"refs", Json::array({{{"table", "weather"}}})}});
  Json columns =
      ToolOk("alice", "datasources_get_columns", {{"name", "lab"}, {"table", "weather"}});
  RestOutcome rest = Rest("alice", "GET", "/api/v1/datasources/lab/tables/weather/columns");
  ASSERT_EQ(rest.status, 200) << rest.body.dump();
  EXPECT_EQ(ColumnFacts(rest.body["data"], "temp_c"), ColumnFacts(columns, "temp_c"));
  Json tables = ToolOk("alice", "datasources_get_tables", {{"name", "lab"}});
  RestOutcome rest_tables = Rest("alice", "GET", "/api/v1/datasources/lab/tables");
  EXPECT_EQ(TableFacts(rest_tables.body["data"], "weather"), TableFacts(tables, "weather"));
  EXPECT_EQ(TableFacts(tables, "weather").size(), 1u);
  RestOutcome rest_get = Rest("alice", "GET", "/api/v1/datasources/lab");
  Json got = ToolOk("alice", "datasources_get", {{"name", "lab"}});
  EXPECT_EQ(rest_get.body["data"]["facts"], got["facts"]);
  EXPECT_EQ(got["facts"].size(), 1u);
  EXPECT_EQ(rest_get.body["data"]["definitions"], Json::array());
}

TEST_P(SemanticsFlows, AuditRowsNameTheFactNeverItsTextOrSql) {
  Json fact = RecordUnit("alice", "temp_c is already in the unit named by unit");
  auto rows = store_->Audit().ListAudit("semantics.recorded", 10);
  ASSERT_EQ(rows.size(), 1u);
  const Json& details = rows[0].details;
  EXPECT_EQ(details["fact_id"], fact["id"]);
  EXPECT_EQ(details["kind"], "unit");
  EXPECT_EQ(details["scope"], "DATASOURCE");
  EXPECT_EQ(details["datasource"], "lab");
  EXPECT_EQ(details["refs"], Json::array({"weather.temp_c"}));
  EXPECT_EQ(details["trust"], "observed");
  EXPECT_EQ(details["via"], "mcp");
  EXPECT_EQ(details["evidence"], true);
  EXPECT_EQ(details.dump().find("never tenths"), std::string::npos);
  EXPECT_EQ(details.dump().find("SELECT"), std::string::npos);
  EXPECT_EQ(details.dump().find("named by"), std::string::npos);
  // Beside the dispatcher's write row, with the same correlation id.
  auto writes = store_->Audit().ListAudit("mcp.tool.write", 10);
  ASSERT_FALSE(writes.empty());
  EXPECT_EQ(writes[0].correlation_id, rows[0].correlation_id);
}

TEST_P(SemanticsFlows, ListFiltersByTableScopeAndSince) {
  RecordUnit("alice", "temp_c is already in the unit named by unit", false);
  ToolOk("alice", "semantics_record",
         {{"scope", "WORKSPACE"},
          {"datasource", "lab"},
          {"kind", "exclusion"},
          {"fact", "airport zones never count as city zones"},
          {"refs", Json::array({{{"table", "zones"}, {"column", "name"}}})}});
  EXPECT_EQ(ToolOk("alice", "semantics_list", {{"datasource", "lab"}, {"table", "zones"}})["count"],
            1);
  EXPECT_EQ(
      ToolOk("alice", "semantics_list", {{"datasource", "lab"}, {"scope", "DATASOURCE"}})["count"],
      1);
  EXPECT_EQ(ToolOk("alice", "semantics_list",
                   {{"datasource", "lab"}, {"since", "2000-01-01T00:00:00Z"}})["count"],
            2);
  EXPECT_EQ(ToolOk("alice", "semantics_list",
                   {{"datasource", "lab"}, {"since", "2999-01-01T00:00:00.000+02:00"}})["count"],
            0);
  EXPECT_EQ(Tool("alice", "semantics_list", {{"datasource", "lab"}, {"since", "yesterday"}}).Code(),
            "jsonrpc:-32602");
  EXPECT_EQ(Tool("nora", "semantics_list", {{"datasource", "lab"}}).Code(), "datasource.not_found");
  EXPECT_EQ(ToolOk("victor", "semantics_list", {{"datasource", "lab"}})["count"], 2);
  EXPECT_EQ(Tool("victor", "semantics_retire",
                 {{"id", "00000000-0000-4000-8000-000000000000"}, {"reason", "nope"}})
                .Code(),
            "auth.scope.insufficient");
  EXPECT_EQ(Tool("alice", "semantics_retire",
                 {{"id", "00000000-0000-4000-8000-000000000000"}, {"reason", "nope"}})
                .Code(),
            "semantics.not_found");
}

INSTANTIATE_TEST_SUITE_P(Backends, SemanticsFlows,
                         ::testing::Values(MetadataBackend::kSqlite, MetadataBackend::kPostgres),
                         [](const auto& info) { return std::string(BackendName(info.param)); });

}  // namespace
}  // namespace dp::test
