// Whole template workflows through the MCP tools and the REST routes: the version lifecycle,
// workspace isolation, listing and browsing, library imports, rendering, audit, and the
// human verbs.
#include <algorithm>

#include "template_fixture.hpp"

namespace dp::test {
namespace {

class TemplateFlows : public TemplateStack {
 protected:
  Json Library(const std::string& id, const std::string& body, Json imports = Json::array()) {
    Json args = SqlTemplate(id, body);
    args["is_library"] = true;
    args["imports"] = std::move(imports);
    args["confirm_new_root"] = true;
    return args;
  }
  static Json Import(const std::string& id, int version, const std::string& alias) {
    return Json{{"id", id}, {"version", version}, {"alias", alias}};
  }
  Json Created(const std::string& user, Json args) {
    args["confirm_new_root"] = true;
    return ToolOk(user, "templates_create", std::move(args));
  }
  // templates_update of `id` from its current working version with the given body.
  Json Updated(const std::string& id, const std::string& body) {
    Json current = ToolOk("alice", "templates_get", {{"id", id}});
    Json args = {{"id", id},
                 {"expected_hash", current["body_hash"]},
                 {"display_name", current["display_name"]},
                 {"description", current["description"]},
                 {"imports", current["imports"]},
                 {"is_library", current["is_library"]},
                 {"body", body}};
    return ToolOk("alice", "templates_update", args);
  }
};

TEST_F(TemplateFlows, VersionLifecycleCopyOnWriteAndNoOp) {
  const std::string id = "acme/finance/orders.sql";
  Json v1 = Created("alice", SqlTemplate(id, "SELECT 1"));
  EXPECT_EQ(v1["version"], 1);
  EXPECT_EQ(v1["status"], "DRAFT");
  EXPECT_TRUE(v1["current_version"].is_null());
  EXPECT_EQ(v1["draft"]["version"], 1);
  EXPECT_EQ(v1["draft"]["body_hash"], v1["body_hash"]);

  // Draft overwritten in place: same version number, new hash.
  Json v1b = Updated(id, "SELECT 2");
  EXPECT_EQ(v1b["version"], 1);
  EXPECT_EQ(v1b["status"], "DRAFT");
  EXPECT_NE(v1b["body_hash"], v1["body_hash"]);

  RestOutcome released = Rest("alice", "POST", Path(id, "/release"));
  ASSERT_EQ(released.status, 200) << released.body.dump();
  EXPECT_EQ(released.body["data"]["status"], "RELEASED");
  EXPECT_EQ(released.body["data"]["current_version"], 1);
  EXPECT_FALSE(released.body["data"].contains("draft"));

  // Same content as the release: the §5.1 no-op, no draft opened, no number burned.
  Json noop = Updated(id, "SELECT 2");
  EXPECT_EQ(noop["status"], "RELEASED");
  EXPECT_EQ(noop["version"], 1);
  EXPECT_FALSE(noop.contains("draft"));

  // First change after a release: copy-on-write to version 2.
  Json v2 = Updated(id, "SELECT 3");
  EXPECT_EQ(v2["version"], 2);
  EXPECT_EQ(v2["status"], "DRAFT");
  EXPECT_EQ(v2["current_version"], 1);
  EXPECT_EQ(v2["draft"]["version"], 2);
  // Later change: the same draft, in place.
  Json v2b = Updated(id, "SELECT 4");
  EXPECT_EQ(v2b["version"], 2);
  EXPECT_EQ(ToolOk("alice", "templates_get", {{"id", id}})["body"], "SELECT 4");
  // The release is immutable.
  Json old = ToolOk("alice", "templates_get", {{"id", id}, {"version", 1}});
  EXPECT_EQ(old["body"], "SELECT 2");
  EXPECT_EQ(old["status"], "RELEASED");
  EXPECT_EQ(old["body_hash"], v1b["body_hash"]);

  // A writer still holding the released hash is refused with the current state.
  Json stale = SqlTemplate(id, "SELECT 5");
  stale.erase("id");
  stale["id"] = id;
  stale["expected_hash"] = v1b["body_hash"];
  ToolOutcome conflict = Tool("alice", "templates_update", stale);
  ASSERT_EQ(conflict.Code(), "template.version.conflict");
  EXPECT_EQ(conflict.payload["error"]["details"]["current"]["version"], 2);
  EXPECT_EQ(conflict.payload["error"]["details"]["current"]["body_hash"], v2b["body_hash"]);

  RestOutcome versions = Rest("alice", "GET", Path(id, "/versions"));
  ASSERT_EQ(versions.status, 200);
  ASSERT_EQ(versions.body["data"]["items"].size(), 2u);
  EXPECT_FALSE(versions.body["data"]["items"][0].contains("body"));
}

TEST_F(TemplateFlows, TwoWritersOnOneHashOnlyOneWins) {
  const std::string id = "acme/finance/race.sql";
  Json v1 = Created("alice", SqlTemplate(id));
  Json args = SqlTemplate(id, "SELECT 'alice'");
  args["expected_hash"] = v1["body_hash"];
  ToolOk("alice", "templates_update", args);
  args["body"] = "SELECT 'bob'";
  EXPECT_EQ(Tool("bob", "templates_update", args).Code(), "template.version.conflict");
  EXPECT_EQ(ToolOk("bob", "templates_get", {{"id", id}})["body"], "SELECT 'alice'");
}

TEST_F(TemplateFlows, TypeAndDialectInheritOnAgentUpdate) {
  Json html = Created("alice", {{"id", "acme/reports/page.html"},
                                {"type", "html"},
                                {"display_name", "Page"},
                                {"description", "title: STRING"},
                                {"body", "<p>${title}</p>"}});
  EXPECT_TRUE(html["dialect"].is_null());
  Json updated = ToolOk("alice", "templates_update",
                        {{"id", "acme/reports/page.html"},
                         {"expected_hash", html["body_hash"]},
                         {"display_name", "Page"},
                         {"description", "title: STRING"},
                         {"body", "<h1>${title}</h1>"}});
  EXPECT_EQ(updated["type"], "html");
  Json sql = Created("alice", SqlTemplate("acme/finance/q.sql"));
  Json inherited = ToolOk("alice", "templates_update",
                          {{"id", "acme/finance/q.sql"},
                           {"expected_hash", sql["body_hash"]},
                           {"display_name", "Q"},
                           {"description", "d"},
                           {"body", "SELECT 9"}});
  EXPECT_EQ(inherited["dialect"], "POSTGRES");
  // REST PUT states its dialect; an sql PUT without one is refused, not inherited.
  RestOutcome put = Rest(
      "alice", "PUT", Path("acme/finance/q.sql"),
      {{"expected_hash", inherited["body_hash"]}, {"display_name", "Q"}, {"body", "SELECT 10"}});
  EXPECT_EQ(put.Code(), "template.validation.dialect_invalid");
}

TEST_F(TemplateFlows, WorkspacesAreIsolated) {
  Json mine = Created("alice", SqlTemplate("acme/shared/name.sql", "SELECT 'alice'"));
  // The same id in another workspace is a different template, not a duplicate.
  Json theirs = Created("olga", SqlTemplate("acme/shared/name.sql", "SELECT 'olga'"));
  EXPECT_EQ(ToolOk("alice", "templates_get", {{"id", "acme/shared/name.sql"}})["body"],
            "SELECT 'alice'");
  EXPECT_EQ(ToolOk("olga", "templates_get", {{"id", "acme/shared/name.sql"}})["body"],
            "SELECT 'olga'");
  Created("olga", SqlTemplate("acme/hidden/x.sql"));
  ToolOutcome missing = Tool("alice", "templates_get", {{"id", "acme/never/x.sql"}});
  ToolOutcome foreign = Tool("alice", "templates_get", {{"id", "acme/hidden/x.sql"}});
  EXPECT_EQ(foreign.Code(), "template.not_found");
  // Identical to a missing one apart from the id it names.
  EXPECT_EQ(foreign.payload["error"]["message"].get<std::string>(),
            "No template 'acme/hidden/x.sql' in this workspace.");
  EXPECT_EQ(missing.payload["error"]["message"].get<std::string>(),
            "No template 'acme/never/x.sql' in this workspace.");
  Json listed = ToolOk("alice", "templates_list", Json::object());
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0]["id"], "acme/shared/name.sql");
  // olga's update cannot reach alice's template with alice's hash.
  Json args = SqlTemplate("acme/shared/name.sql", "SELECT 'x'");
  args["expected_hash"] = mine["body_hash"];
  EXPECT_EQ(Tool("olga", "templates_update", args).Code(), "template.version.conflict");
  EXPECT_EQ(ToolOk("alice", "templates_get", {{"id", "acme/shared/name.sql"}})["body"],
            "SELECT 'alice'");
  (void)theirs;
}

TEST_F(TemplateFlows, ListFlatAndBrowseOneLevel) {
  Created("alice", SqlTemplate("acme/finance/a.sql"));
  Created("alice", SqlTemplate("acme/finance/deep/b.sql"));
  Json mysql = SqlTemplate("acme/ops/c.sql");
  mysql["dialect"] = "MYSQL";
  mysql["description"] = "Counts Widgets";
  Created("alice", mysql);
  Created("alice", Library("acme/lib/dates.sql", "<#macro r>x</#macro>"));
  Created("alice", {{"id", "beta/web/page.html"},
                    {"type", "html"},
                    {"display_name", "P"},
                    {"description", "d"},
                    {"body", "<p/>"}});

  Json flat = ToolOk("alice", "templates_list", Json::object());
  ASSERT_EQ(flat.size(), 5u);
  EXPECT_EQ(flat[0]["id"], "acme/finance/a.sql");
  EXPECT_EQ(flat[0]["status"], "DRAFT");
  EXPECT_FALSE(flat[0].contains("body"));
  EXPECT_EQ(ToolOk("alice", "templates_list", {{"q", "widgets"}}).size(), 1u);
  EXPECT_EQ(ToolOk("alice", "templates_list", {{"dialect", "MYSQL"}}).size(), 1u);
  Json html = ToolOk("alice", "templates_list", {{"type", "html"}});
  ASSERT_EQ(html.size(), 1u);
  EXPECT_TRUE(html[0]["dialect"].is_null());
  EXPECT_EQ(ToolOk("alice", "templates_list", {{"is_library", true}}).size(), 1u);
  EXPECT_EQ(ToolOk("alice", "templates_list", {{"limit", 2}}).size(), 2u);

  Json root = ToolOk("alice", "templates_list", {{"prefix", ""}});
  EXPECT_EQ(root["prefix"], "");
  EXPECT_EQ(root["folders"], Json::parse(R"([
    {"path": "acme", "segment": "acme", "template_count": 4},
    {"path": "beta", "segment": "beta", "template_count": 1}])"));
  EXPECT_TRUE(root["templates"].empty());
  // dialect narrows both halves; a folder whose subtree is filtered out is absent.
  Json pg = ToolOk("alice", "templates_list", {{"prefix", ""}, {"dialect", "POSTGRES"}});
  ASSERT_EQ(pg["folders"].size(), 1u);
  EXPECT_EQ(pg["folders"][0]["template_count"], 3);
  Json finance = ToolOk("alice", "templates_list", {{"prefix", "acme/finance"}});
  ASSERT_EQ(finance["templates"].size(), 1u);
  EXPECT_EQ(finance["templates"][0]["id"], "acme/finance/a.sql");
  EXPECT_EQ(finance["folders"][0]["path"], "acme/finance/deep");
  EXPECT_EQ(finance["total"], 1);
  EXPECT_EQ(finance["has_more"], false);
  // is_library narrows leaves only; folder counts stay whole-subtree.
  Json acme = ToolOk("alice", "templates_list", {{"prefix", "acme"}, {"is_library", false}});
  auto lib = std::find_if(acme["folders"].begin(), acme["folders"].end(),
                          [](const Json& f) { return f["segment"] == "lib"; });
  ASSERT_NE(lib, acme["folders"].end());
  EXPECT_EQ((*lib)["template_count"], 1);
  EXPECT_TRUE(ToolOk("alice", "templates_list", {{"prefix", "Not A Path"}})["folders"].empty());
  // q is ignored while browsing.
  EXPECT_EQ(ToolOk("alice", "templates_list", {{"prefix", ""}, {"q", "zzz"}})["folders"].size(),
            2u);

  RestOutcome page = Rest("alice", "GET", "/api/v1/templates?limit=2&offset=1");
  ASSERT_EQ(page.status, 200) << page.body.dump();
  EXPECT_EQ(page.body["data"]["items"].size(), 2u);
  EXPECT_EQ(page.body["data"]["items"][0]["id"], "acme/finance/deep/b.sql");
  EXPECT_EQ(page.body["data"]["pagination"]["total"], 5);
  EXPECT_EQ(page.body["data"]["pagination"]["has_more"], true);
  RestOutcome browse = Rest("alice", "GET", "/api/v1/templates?prefix=acme%2Ffinance");
  EXPECT_EQ(browse.body["data"]["templates"][0]["id"], "acme/finance/a.sql");
}

TEST_F(TemplateFlows, LibrariesResolveByExactVersionAndTransitively) {
  Created("alice",
          Library("acme/lib/quote.sql", "<#function q s><#return \"'\" + s + \"'\"></#function>"));
  Created("alice", Library("acme/lib/dates.sql",
                           "<#macro range col start end>${col} BETWEEN ${qt.q(start)} AND "
                           "${qt.q(end)}</#macro>",
                           Json::array({Import("acme/lib/quote.sql", 1, "qt")})));
  Json q = SqlTemplate("acme/finance/q.sql",
                       "SELECT * FROM t WHERE <@d.range col=\"day\" start=from end=to/>");
  q["imports"] = Json::array({Import("acme/lib/dates.sql", 1, "d")});
  Created("alice", q);
  Json context = {{"from", "2026-01-01"}, {"to", "2026-01-31"}};
  const std::string expected = "SELECT * FROM t WHERE day BETWEEN '2026-01-01' AND '2026-01-31'";
  EXPECT_EQ(ToolOk("alice", "templates_render",
                   {{"id", "acme/finance/q.sql"}, {"context", context}})["rendered"],
            expected);
  // A new library version changes nothing for an importer pinned to version 1.
  RestOutcome release = Rest("alice", "POST", Path("acme/lib/dates.sql", "/release"));
  ASSERT_EQ(release.status, 200);
  Updated("acme/lib/dates.sql", "<#macro range col start end>CHANGED</#macro>");
  RestOutcome rendered = Rest("alice", "POST", Path("acme/finance/q.sql", "/versions/1/render"),
                              {{"context", context}});
  ASSERT_EQ(rendered.status, 200) << rendered.body.dump();
  EXPECT_EQ(rendered.body["data"]["rendered"], expected);
  // Re-pinning to version 2 is an edit of the importer.
  Json current = ToolOk("alice", "templates_get", {{"id", "acme/finance/q.sql"}});
  Json repin = SqlTemplate("acme/finance/q.sql", current["body"]);
  repin["imports"] = Json::array({Import("acme/lib/dates.sql", 2, "d")});
  repin["expected_hash"] = current["body_hash"];
  ToolOk("alice", "templates_update", repin);
  EXPECT_EQ(ToolOk("alice", "templates_render",
                   {{"id", "acme/finance/q.sql"}, {"context", context}})["rendered"],
            "SELECT * FROM t WHERE CHANGED");
}

TEST_F(TemplateFlows, ImportCycleRefusedOverBothSurfaces) {
  Json a = Created("alice", Library("acme/lib/a.sql", "<#macro m>a</#macro>"));
  Created("alice", Library("acme/lib/b.sql", "<#macro m>b</#macro>",
                           Json::array({Import("acme/lib/a.sql", 1, "a")})));
  // a@1 is still a draft: making it import b@1 (which imports a@1) closes a cycle.
  Json cyclic = Library("acme/lib/a.sql", "<#macro m>a</#macro>",
                        Json::array({Import("acme/lib/b.sql", 1, "b")}));
  cyclic.erase("confirm_new_root");
  cyclic["expected_hash"] = a["body_hash"];
  ToolOutcome mcp = Tool("alice", "templates_update", cyclic);
  EXPECT_EQ(mcp.Code(), "template.validation.import_cycle");
  EXPECT_EQ(mcp.payload["error"]["details"]["cycle"],
            Json::parse(R"(["acme/lib/a.sql@1", "acme/lib/b.sql@1", "acme/lib/a.sql@1"])"));
  cyclic.erase("id");
  RestOutcome rest = Rest("alice", "PUT", Path("acme/lib/a.sql"), cyclic);
  EXPECT_EQ(rest.status, 400);
  EXPECT_EQ(rest.Code(), "template.validation.import_cycle");
}

TEST_F(TemplateFlows, ImportDepthCappedAtTenOverBothSurfaces) {
  Created("alice", Library("acme/lib/l0.sql", "<#macro m>0</#macro>"));
  for (int i = 1; i <= 10; ++i) {
    Created("alice",
            Library("acme/lib/l" + std::to_string(i) + ".sql", "<#macro m>x</#macro>",
                    Json::array({Import("acme/lib/l" + std::to_string(i - 1) + ".sql", 1, "p")})));
  }
  // l10's closure is 10 deep; importing l10 makes 11.
  Json deep = SqlTemplate("acme/finance/deep.sql", "<@p.m/>");
  deep["imports"] = Json::array({Import("acme/lib/l10.sql", 1, "p")});
  EXPECT_EQ(Tool("alice", "templates_create", deep).Code(),
            "template.validation.import_depth_exceeded");
  RestOutcome rest = Rest("alice", "POST", "/api/v1/templates", deep);
  EXPECT_EQ(rest.Code(), "template.validation.import_depth_exceeded");
  deep["imports"] = Json::array({Import("acme/lib/l9.sql", 1, "p")});
  EXPECT_EQ(Rest("alice", "POST", "/api/v1/templates", deep).status, 201);
}

TEST_F(TemplateFlows, HtmlAutoEscapesAndSqlDoesNot) {
  Created("alice", {{"id", "acme/reports/page.html"},
                    {"type", "html"},
                    {"display_name", "Page"},
                    {"description", "title"},
                    {"body", "<p>${title}</p>"}});
  Created("alice", SqlTemplate("acme/finance/raw.sql", "SELECT '${title}'"));
  Json context = {{"title", "<b>Tom & \"Jerry\"</b>"}};
  Json html =
      ToolOk("alice", "templates_render", {{"id", "acme/reports/page.html"}, {"context", context}});
  EXPECT_EQ(html["type"], "html");
  EXPECT_EQ(html["rendered"], "<p>&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;</p>");
  EXPECT_EQ(ToolOk("alice", "templates_render",
                   {{"id", "acme/finance/raw.sql"}, {"context", context}})["rendered"],
            "SELECT '<b>Tom & \"Jerry\"</b>'");
}

TEST_F(TemplateFlows, RenderAuditRowCarriesTheTemplateIdNeverTheContext) {
  Created("alice", SqlTemplate("acme/finance/r.sql", "SELECT '${secret_value}'"));
  Json rendered = ToolOk("alice", "templates_render",
                         {{"id", "acme/finance/r.sql"},
                          {"version", 1},
                          {"context", {{"secret_value", "hunter2-customer-data"}}}});
  EXPECT_EQ(rendered["rendered"], "SELECT 'hunter2-customer-data'");
  auto rows = store_->Audit().ListAudit("mcp.tool.", 10);
  ASSERT_FALSE(rows.empty());
  const AuditEvent& row = rows.front();
  EXPECT_EQ(row.event, "mcp.tool.called");  // render is not a write
  EXPECT_EQ(row.details["tool"], "templates_render");
  EXPECT_EQ(row.details["target"]["id"], "acme/finance/r.sql");
  EXPECT_EQ(row.details["target"]["version"], 1);
  EXPECT_EQ(row.details["outcome"], "success");
  EXPECT_EQ(row.key_id, P("alice").key_id);
  for (const auto& any : rows) {
    EXPECT_EQ(any.details.dump().find("hunter2"), std::string::npos);
  }
  // templates_create is declared mutating: a called row and a write row.
  EXPECT_EQ(rows[1].event, "mcp.tool.write");
  EXPECT_EQ(rows[1].details["tool"], "templates_create");
}

TEST_F(TemplateFlows, IdsGeneratedUnderTestAndRootsConfirmed) {
  Json args = SqlTemplate("unused");
  args.erase("id");
  Json generated = ToolOk("alice", "templates_create", args);
  EXPECT_EQ(generated["id"].get<std::string>().rfind("test/tpl_", 0), 0u);
  ToolOk("alice", "templates_create", SqlTemplate("test/scratch/a.sql"));  // test/ is exempt
  ToolOutcome refused = Tool("alice", "templates_create", SqlTemplate("zeta/x.sql"));
  EXPECT_EQ(refused.Code(), "template.validation.new_root_requires_confirmation");
  EXPECT_EQ(refused.payload["error"]["details"]["existing_roots"], Json::array({"test"}));
  Json confirmed = SqlTemplate("zeta/x.sql");
  confirmed["confirm_new_root"] = true;
  ToolOk("alice", "templates_create", confirmed);
  ToolOk("alice", "templates_create", SqlTemplate("zeta/y.sql"));  // zeta exists now
}

TEST_F(TemplateFlows, PurgeOwnNeverReleasedDraft) {
  Created("alice", SqlTemplate("acme/finance/oops.sql"));
  Json purged = ToolOk("alice", "templates_purge_draft", {{"id", "acme/finance/oops.sql"}});
  EXPECT_EQ(purged, Json::parse(R"({"id": "acme/finance/oops.sql", "purged": true})"));
  EXPECT_EQ(Tool("alice", "templates_get", {{"id", "acme/finance/oops.sql"}}).Code(),
            "template.not_found");
  // The entity row went with it: the id is free again.
  Created("alice", SqlTemplate("acme/finance/oops.sql"));
  RestOutcome rest = Rest("alice", "POST", Path("acme/finance/oops.sql", "/purge-draft"));
  EXPECT_EQ(rest.status, 200);
  EXPECT_EQ(rest.body["data"]["purged"], true);
}

TEST_F(TemplateFlows, UsedByShapeWithAndWithoutPins) {
  Created("alice", SqlTemplate("acme/finance/u.sql"));
  Json none = ToolOk("alice", "templates_used_by", {{"id", "acme/finance/u.sql"}, {"version", 1}});
  EXPECT_EQ(none, Json::parse(R"({"template": {"id": "acme/finance/u.sql", "version": 1},
      "scan": "working_version", "pipeline_count": 0, "references": []})"));
  pins_.pins[P("alice").workspace_id + "|acme/finance/u.sql"] = {
      TemplatePin{"acme/finance/daily", "p-1", "fetch", 3, "DRAFT", 1},
      TemplatePin{"acme/finance/daily", "p-1", "again", 3, "DRAFT", 1}};
  RestOutcome used = Rest("alice", "GET", Path("acme/finance/u.sql", "/versions/1/used-by"));
  ASSERT_EQ(used.status, 200);
  EXPECT_EQ(used.body["data"]["pipeline_count"], 1);
  ASSERT_EQ(used.body["data"]["references"].size(), 2u);
  EXPECT_EQ(used.body["data"]["references"][1]["node_id"], "again");
}

TEST_F(TemplateFlows, HumanVerbsDiscardAndDelete) {
  const std::string id = "acme/finance/h.sql";
  Created("alice", SqlTemplate(id, "SELECT 1"));
  ASSERT_EQ(Rest("alice", "POST", Path(id, "/release")).status, 200);
  Updated(id, "SELECT 2");
  RestOutcome discarded = Rest("alice", "POST", Path(id, "/versions/2/discard"));
  ASSERT_EQ(discarded.status, 200) << discarded.body.dump();
  EXPECT_EQ(discarded.body["data"]["status"], "DISCARDED");
  Json working = ToolOk("alice", "templates_get", {{"id", id}});
  EXPECT_EQ(working["version"], 1);
  EXPECT_EQ(working["status"], "RELEASED");
  // Version numbers are never reused: the next draft is 3.
  EXPECT_EQ(Updated(id, "SELECT 3")["version"], 3);
  // Any released or discarded history means a person retires it, not purge.
  EXPECT_EQ(Tool("alice", "templates_purge_draft", {{"id", id}}).Code(),
            "template.version.last_release");
  RestOutcome deleted = Rest("alice", "DELETE", Path(id));
  EXPECT_EQ(deleted.status, 204);
  EXPECT_EQ(Rest("alice", "GET", Path(id)).status, 404);
  EXPECT_EQ(Tool("alice", "templates_list", Json::object()).payload.size(), 0u);
  // A soft-deleted id stays taken.
  EXPECT_EQ(Rest("alice", "POST", "/api/v1/templates", SqlTemplate(id)).status, 409);
}

}  // namespace
}  // namespace dp::test
