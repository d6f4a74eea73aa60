// The web UI's pure parts: the DAG drawing and the line diff from case files
// (tests/ui_cases/), and every embedded page template parsed in html mode, rendered with
// hostile strings in every user-supplied field: they come out escaped, never as markup.
#include <gtest/gtest.h>

#include <fstream>

#include "datapipelines/ui/dag_layout.hpp"
#include "datapipelines/ui/page_renderer.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {
namespace {

Json Cases(const std::string& file) {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/ui_cases/" + file);
  return Json::parse(in)["cases"];
}

TEST(UiDagLayout, PlacesNodesByLongestPathAndDrawsEveryKnownEdge) {
  Json cases = Cases("dag_layout.json");
  ASSERT_FALSE(cases.empty());
  for (const Json& c : cases) {
    SCOPED_TRACE(c["name"].get<std::string>());
    Json layout = LayoutDag(c["nodes"]);
    ASSERT_EQ(layout["nodes"].size(), c["nodes"].size());
    for (const Json& n : layout["nodes"]) {
      std::string id = n["id"];
      if (c["columns"].is_object()) {
        EXPECT_EQ(n["x"].get<int>(), 12 + c["columns"][id].get<int>() * 232) << id;
        EXPECT_EQ(n["y"].get<int>(), 12 + c["rows"][id].get<int>() * 64) << id;
      }
      EXPECT_LE(n["x"].get<int>() + n["w"].get<int>(), layout["width"].get<int>());
      EXPECT_LE(n["y"].get<int>() + n["h"].get<int>(), layout["height"].get<int>());
    }
    Json edges = Json::array();
    for (const Json& e : layout["edges"]) {
      edges.push_back(e["from"].get<std::string>() + "->" + e["to"].get<std::string>());
      EXPECT_EQ(e["d"].get<std::string>().rfind("M", 0), 0u);
    }
    EXPECT_EQ(edges, c["edges"]);
  }
}

TEST(UiLineDiff, FollowsTheLongestCommonSubsequence) {
  Json cases = Cases("line_diff.json");
  ASSERT_FALSE(cases.empty());
  for (const Json& c : cases) {
    SCOPED_TRACE(c["name"].get<std::string>());
    Json diff = LineDiff(c["before"], c["after"], c.value("max_lines", 3000));
    Json ops = Json::array();
    for (const Json& d : diff)
      ops.push_back(d["op"].get<std::string>() + d["text"].get<std::string>());
    EXPECT_EQ(ops, c["ops"]);
  }
}

constexpr const char* kHostile = "<script>alert(1)</script>";

// A model with every field a page reads, each user-supplied string hostile.
Json HostileModel() {
  Json pipeline = {{"id", "p1"},
                   {"name", kHostile},
                   {"display_name", kHostile},
                   {"description", kHostile},
                   {"version", 2},
                   {"status", "DRAFT"},
                   {"owner", kHostile},
                   {"current_version", 1},
                   {"href", "/ui/pipelines/p1"},
                   {"updated_at", "2026-01-01T00:00:00Z"},
                   {"draft", {{"version", 2}, {"body_hash", "h"}}}};
  Json execution = {{"execution_id", "e1234567890"},
                    {"pipeline_id", "p1"},
                    {"pipeline_name", kHostile},
                    {"version", 1},
                    {"status", "FAILED"},
                    {"triggered_by", kHostile},
                    {"via", "ui"},
                    {"started_at", "2026-01-01T00:00:00Z"},
                    {"duration_ms", 5},
                    {"href", "/ui/executions/e1"}};
  Json datasource = {{"name", "ds"},
                     {"display_name", kHostile},
                     {"dialect", "SQLITE"},
                     {"jdbc_url", kHostile},
                     {"username", kHostile},
                     {"readonly", true},
                     {"password_set", true},
                     {"href", "/ui/datasources/ds"},
                     {"facts", {{{"kind", kHostile}, {"text", kHostile}}}},
                     {"last_test",
                      {{"tested_at", "2026-01-01T00:00:00.000Z"},
                       {"ok", false},
                       {"latency_ms", 4},
                       {"error_code", kHostile}}}};
  Json untested = datasource;
  untested["last_test"] = nullptr;  // never tested
  Json tmpl = {{"id", kHostile}, {"display_name", kHostile}, {"status", "DRAFT"},
               {"version", 1},   {"body_hash", "h"},         {"href", "/ui/templates/t"}};
  Json key = {{"id", "k1"},
              {"name", kHostile},
              {"scope", "read"},
              {"revoked", false},
              {"created_at", "2026-01-01T00:00:00Z"},
              {"href", "/ui/keys/k1"}};
  return Json{
      {"me",
       {{"email", kHostile},
        {"display_name", kHostile},
        {"workspace", kHostile},
        {"role", "ws_admin"},
        {"super_admin", true}}},
      {"csrf", "token"},
      {"section", "pipelines"},
      {"correlation_id", "c1"},
      {"path", "/ui/"},
      {"can",
       {{"author", true},
        {"release", true},
        {"execute", true},
        {"admin_workspace", true},
        {"super_admin", true}}},
      {"refusal", {{"code", "x.y.z"}, {"message", kHostile}, {"correlation_id", "c1"}}},
      {"error", {{"code", "x.y.z"}, {"message", kHostile}}},
      {"next", "/ui/"},
      {"expired", true},
      {"next_q", "%2Fui%2F"},
      {"email", kHostile},
      {"stats", {{"pipelines", 1}, {"drafts", 1}, {"datasources", 1}, {"failed_recent", 1}}},
      {"executions", {execution}},
      {"drafts", {pipeline}},
      {"datasources", {datasource, untested}},
      {"registry", {datasource}},
      {"datasource", datasource},
      {"grants", {{{"workspace", kHostile}, {"href", "/ui/x"}}}},
      {"test", {{"connected", false}, {"error", {{"message", kHostile}}}}},
      {"form", {{"name", kHostile}}},
      {"q", kHostile},
      {"prefix", kHostile},
      {"browse", true},
      {"total", 1},
      {"has_more", true},
      {"offset", 0},
      {"next_offset", 200},
      {"folders",
       {{{"path", kHostile}, {"segment", kHostile}, {"pipeline_count", 1}, {"href", "/ui/p"}}}},
      {"crumbs", {{{"label", kHostile}, {"href", "/ui/p"}}}},
      {"pipelines", {pipeline}},
      {"pipeline", pipeline},
      {"body_text", kHostile},
      {"versions",
       {{{"version", 1},
         {"status", "RELEASED"},
         {"created_by", kHostile},
         {"updated_at", "t"},
         {"href", "/ui/p"}}}},
      {"dag", LayoutDag(Json::array({{{"id", kHostile}, {"type", kHostile}}}))},
      {"diff", {{{"op", "+"}, {"text", kHostile}}}},
      {"diff_from", 1},
      {"diff_to", 2},
      {"checks", {{{"check_id", "c"}, {"name", kHostile}, {"datasource", kHostile}}}},
      {"self", "/ui/pipelines/p1"},
      {"filter",
       {{"pipeline_id", kHostile},
        {"status", ""},
        {"since", ""},
        {"started_after", kHostile},
        {"started_before", kHostile}}},
      {"older_href", "/ui/executions?offset=100"},
      {"action", "/ui/pipelines/p1/release"},
      {"question", kHostile},
      {"verb", "release"},
      {"fields", {{{"name", kHostile}, {"value", kHostile}}}},
      {"back", "/ui/pipelines/p1"},
      {"execution", execution},
      {"pipeline_href", "/ui/p"},
      {"csv_href", "/api/x"},
      {"timeline",
       {{{"node_id", kHostile},
         {"type", "DQL"},
         {"status", "FAILED"},
         {"x", 160},
         {"w", 3},
         {"y", 8},
         {"ty", 22},
         {"duration_ms", 1},
         {"rows_out", -1}}}},
      {"events", {{{"seq", 1}, {"type", kHostile}, {"at", "t"}}}},
      {"parameters_text", kHostile},
      {"error_text", kHostile},
      {"root_cause", {{"code", kHostile}, {"message", kHostile}, {"node", kHostile}}},
      {"templates", {tmpl}},
      {"template", tmpl},
      {"lines", {{{"n", 1}, {"text", kHostile}}}},
      {"used_by",
       {{"references",
         {{{"pipeline", kHostile},
           {"pipeline_version", 1},
           {"node_id", kHostile},
           {"pipeline_version_status", "DRAFT"}}}}}},
      {"keys", {key}},
      {"members",
       {{{"email", kHostile},
         {"display_name", kHostile},
         {"author", true},
         {"promoter", false},
         {"admin", false},
         {"flags_name", kHostile},
         {"joined_at", "t"},
         {"href", "/ui/admin/members/x"}}}},
      {"users",
       {{{"email", kHostile},
         {"display_name", kHostile},
         {"active", true},
         {"super_admin", false},
         {"provider", kHostile},
         {"local_password", true},
         {"must_change_password", true},
         {"locked", true},
         {"href", "/ui/admin/users/x"},
         {"created_at", "t"}}}},
      {"created_user",
       {{"email", kHostile}, {"mail", "failed"}, {"mail_reason", kHostile}, {"password", kHostile}}},
      {"reset_user", {{"email", kHostile}, {"mail", "sent"}}},
      {"local_enabled", true},
      {"invitations",
       {{{"email", kHostile}, {"author", true}, {"promoter", false}, {"admin", false}}}},
      {"has_local_password", true},
      {"workspaces", {{{"name", kHostile}, {"display_name", kHostile}, {"created_at", "t"}}}},
      {"mcp_url", kHostile},
      {"max_scope", "author"},
      {"issued", {{"name", kHostile}, {"scope", "read"}, {"api_key", "dpk_x"}}},
      {"snippets",
       {{"claude_code", kHostile},
        {"claude_desktop", kHostile},
        {"cursor", kHostile},
        {"generic", kHostile}}}};
}

TEST(UiPages, EveryPageRendersAndEscapesEveryUserString) {
  PageRenderer pages;  // parses every embedded template: a broken one throws here
  const Json model = HostileModel();
  for (const char* page : {"login", "error", "dashboard", "pipelines", "pipeline", "executions",
                           "execution", "datasources", "datasource", "templates", "template",
                           "keys", "connect", "settings", "admin", "confirm",
                           "password_forced"}) {
    SCOPED_TRACE(page);
    ASSERT_TRUE(pages.Has(page));
    std::string html;
    ASSERT_NO_THROW(html = pages.Render(page, model));
    EXPECT_EQ(html.find(kHostile), std::string::npos) << "unescaped markup on " << page;
    EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos) << page;
    // Escaped once: a string built in the template (hx-confirm's question) is not re-escaped.
    EXPECT_EQ(html.find("&amp;lt;"), std::string::npos) << "double-escaped on " << page;
    // No inline script: every <script> element loads a same-origin file.
    for (size_t at = html.find("<script"); at != std::string::npos;
         at = html.find("<script", at + 1)) {
      EXPECT_EQ(html.compare(at, 13, "<script src=\""), 0) << page;
    }
  }
}

}  // namespace
}  // namespace dp
