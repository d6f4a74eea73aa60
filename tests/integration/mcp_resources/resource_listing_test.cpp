// resources/list over the real stack (spec §7.3): docs first, then templates, then
// datasources, each by id; filtered to the caller's workspace and readable kinds; paged at
// 100 with an opaque cursor. Every listed entity URI reads back.
#include <set>

#include "resource_stack.hpp"

namespace dp::test {
namespace {

class ResourceListing : public ResourceStack {
 protected:
  // Every page, following nextCursor.
  std::vector<Json> Pages(const std::string& user) {
    std::vector<Json> pages;
    Json params = Json::object();
    for (;;) {
      Json response = Call(user, "resources/list", params);
      EXPECT_TRUE(response.contains("result")) << response.dump();
      pages.push_back(response["result"]);
      if (!response["result"].contains("nextCursor")) return pages;
      params["cursor"] = response["result"]["nextCursor"];
      if (pages.size() > 20) {
        ADD_FAILURE() << "cursor never ends";
        return pages;
      }
    }
  }

  std::vector<std::string> Uris(const std::string& user) {
    std::vector<std::string> uris;
    for (const Json& page : Pages(user)) {
      for (const Json& resource : page["resources"]) uris.push_back(resource["uri"]);
    }
    return uris;
  }

  // The URIs after the docs rows, which must all lead.
  std::vector<std::string> EntityUris(const std::string& user) {
    std::vector<std::string> uris = Uris(user);
    size_t docs = 0;
    while (docs < uris.size() && uris[docs].rfind("datapipelines://docs/skill", 0) == 0) ++docs;
    EXPECT_EQ(docs, BuiltInSkillDocs().List().size());
    for (size_t i = docs; i < uris.size(); ++i) {
      EXPECT_NE(uris[i].rfind("datapipelines://docs/", 0), 0u) << "docs must lead: " << uris[i];
    }
    return {uris.begin() + static_cast<std::ptrdiff_t>(docs), uris.end()};
  }
};

TEST_F(ResourceListing, DocsThenTemplatesThenDatasourcesEachById) {
  EXPECT_EQ(EntityUris("alice"), (std::vector<std::string>{
                                     "datapipelines://templates/acme/finance/daily_orders.sql",
                                     "datapipelines://templates/acme/pages/card.html",
                                     "datapipelines://templates/acme/versions/report.sql",
                                     "datapipelines://datasources",
                                     "datapipelines://datasources/res-alpha",
                                     "datapipelines://datasources/res-pg",
                                 }));
}

TEST_F(ResourceListing, DescriptorsCarryNameTitleAndJsonMimeType) {
  Json resources = Call("alice", "resources/list", nullptr)["result"]["resources"];
  Json tmpl, datasource;
  for (const Json& r : resources) {
    if (r["uri"] == "datapipelines://templates/acme/pages/card.html") tmpl = r;
    if (r["uri"] == "datapipelines://datasources/res-pg") datasource = r;
  }
  EXPECT_EQ(tmpl["name"], "acme/pages/card.html");
  EXPECT_EQ(tmpl["title"], "Card");
  EXPECT_EQ(tmpl["description"], "resource test template");
  EXPECT_EQ(tmpl["mimeType"], "application/json");
  EXPECT_EQ(datasource["name"], "res-pg");
  EXPECT_EQ(datasource["title"], "PG res-pg");
  EXPECT_EQ(datasource["mimeType"], "application/json");
  EXPECT_EQ(resources.dump().find(kDatasourcePassword), std::string::npos);
}

TEST_F(ResourceListing, TwoWorkspacesSeeDifferentSets) {
  EXPECT_EQ(EntityUris("olga"), (std::vector<std::string>{
                                    "datapipelines://templates/acme/finance/daily_orders.sql",
                                    "datapipelines://templates/beta/secret/only.sql",
                                    "datapipelines://datasources",
                                    "datapipelines://datasources/res-hidden",
                                }));
  // A viewer's read key sees its workspace exactly like the author does.
  EXPECT_EQ(EntityUris("victor"), EntityUris("alice"));
}

TEST_F(ResourceListing, KindsTheKeyMayNotReadAreLeftOut) {
  EXPECT_TRUE(EntityUris("alice-removed").empty());
}

TEST_F(ResourceListing, EveryListedEntityReadsBack) {
  for (const std::string& uri : EntityUris("alice")) {
    Json response = Read("alice", uri);
    EXPECT_TRUE(response.contains("result")) << uri << ": " << response.dump();
  }
}

TEST_F(ResourceListing, PagesOfOneHundredWithAnOpaqueCursor) {
  for (int i = 0; i < 150; ++i) {
    char id[32];
    std::snprintf(id, sizeof id, "test/page_%03d.sql", i);
    Create("alice", id, Write("SELECT " + std::to_string(i), "P"));
  }
  std::vector<Json> pages = Pages("alice");
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_EQ(pages[0]["resources"].size(), 100u);
  EXPECT_TRUE(pages[0]["nextCursor"].is_string());
  EXPECT_FALSE(pages[1].contains("nextCursor"));
  EXPECT_EQ(pages[0]["resources"][0]["uri"], "datapipelines://docs/skill");
  std::vector<std::string> uris = Uris("alice");
  EXPECT_EQ(uris.size(), BuiltInSkillDocs().List().size() + 3 + 150 + 3);
  EXPECT_EQ(std::set<std::string>(uris.begin(), uris.end()).size(), uris.size()) << "duplicates";
  EXPECT_EQ(uris.back(), "datapipelines://datasources/res-pg");
  // A cursor this server did not issue is invalid params.
  for (const char* cursor : {"xyz", "eyJvIjotMX0=", "e30="}) {  // garbage, {"o":-1}, {}
    Json response = Call("alice", "resources/list", Json{{"cursor", cursor}});
    EXPECT_EQ(response["error"]["code"], -32602) << cursor << ": " << response.dump();
  }
}

TEST_F(ResourceListing, ATemplateCreatedOverMcpIsListedAndReadable) {
  Json created = Call("alice", "tools/call",
                      Json{{"name", "templates_create"},
                           {"arguments",
                            {{"id", "acme/finance/fresh.sql"},
                             {"dialect", "POSTGRES"},
                             {"display_name", "Fresh"},
                             {"description", "made over MCP"},
                             {"body", "SELECT 'fresh'"}}}});
  ASSERT_FALSE(created["result"]["isError"].get<bool>()) << created.dump();
  std::vector<std::string> uris = EntityUris("alice");
  EXPECT_EQ(uris[1], "datapipelines://templates/acme/finance/fresh.sql");
  Json read = Read("alice", "datapipelines://templates/acme/finance/fresh.sql/versions/1");
  EXPECT_EQ(read["result"]["contents"][0]["text"], "SELECT 'fresh'");
}

}  // namespace
}  // namespace dp::test
