// McpServer's resource seam with hand-written providers: §7.3 kind order whatever the
// registration order, first-owner routing, and how provider failures become JSON-RPC errors
// and mcp.resource.read rows (the real providers are covered in tests/integration/mcp_resources).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <set>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/docs/skill_docs.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/util/crypto.hpp"
#include "support/core_stack.hpp"

namespace dp {
namespace {

// Owns every URI under datapipelines://{kind}/ and answers with `read`.
class StubProvider : public ResourceProvider {
 public:
  StubProvider(std::string kind, std::function<Json()> read, bool list_refused = false)
      : kind_(std::move(kind)), read_(std::move(read)), list_refused_(list_refused) {}
  std::string_view Kind() const override { return kind_; }
  Json List(const Principal&) override {
    if (list_refused_) throw DomainError(ErrorCode{"auth.role_required", 403}, "no");
    return Json::array({{{"uri", "datapipelines://" + kind_ + "/a"}, {"name", "a"}}});
  }
  std::optional<Json> Read(const Principal&, std::string_view uri) override {
    if (uri.rfind("datapipelines://" + kind_ + "/", 0) != 0) return std::nullopt;
    return read_();
  }
  Json UriTemplates() const override {
    return Json::array({{{"uriTemplate", "datapipelines://" + kind_ + "/{id}"}, {"name", kind_}}});
  }

 private:
  std::string kind_;
  std::function<Json()> read_;
  bool list_refused_;
};

Json Contents() { return Json::array({TextResourceContents("u", "application/json", "{}")}); }

class ResourceRouting : public ::testing::Test {
 protected:
  void SetUp() override {
    test::OpenCoreStack(store_, audit_, auth_);
    server_ = std::make_unique<McpServer>(catalog_, *audit_, BuiltInSkillDocs(), "test");
    principal_.user_id = "00000000-0000-4000-8000-00000000000a";
    principal_.key_id = "dpk_TESTTESTTEST";
  }
  Json Send(const std::string& method, Json params) {
    Json request{{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", params}};
    return server_->HandleRequest(request, {principal_, correlation_, "127.0.0.1"});
  }
  Json LastAuditDetails() {
    return store_->Audit().ListAudit("mcp.resource.read", 1).at(0).details;
  }

  std::unique_ptr<MetadataStore> store_;
  std::unique_ptr<AuditLog> audit_;
  std::unique_ptr<AuthService> auth_;
  ToolCatalog catalog_;
  std::unique_ptr<McpServer> server_;
  Principal principal_;
  std::string correlation_ = "00000000-0000-4000-8000-000000000009";
};

TEST_F(ResourceRouting, ListsDocsThenKindsInSpecOrderAndLeavesRefusedKindsOut) {
  server_->AddResourceProvider(std::make_unique<StubProvider>("executions", Contents));
  server_->AddResourceProvider(std::make_unique<StubProvider>("datasources", Contents, true));
  server_->AddResourceProvider(std::make_unique<StubProvider>("pipelines", Contents));
  Json resources = Send("resources/list", Json::object())["result"]["resources"];
  size_t docs = BuiltInSkillDocs().List().size();
  ASSERT_EQ(resources.size(), docs + 2) << resources.dump();
  EXPECT_EQ(resources[0]["uri"], "datapipelines://docs/skill");
  EXPECT_EQ(resources[docs]["uri"], "datapipelines://pipelines/a");
  EXPECT_EQ(resources[docs + 1]["uri"], "datapipelines://executions/a");
}

TEST_F(ResourceRouting, TemplatesListTheDocsTemplateThenEachProvidersInSpecOrder) {
  server_->AddResourceProvider(std::make_unique<StubProvider>("executions", Contents));
  server_->AddResourceProvider(std::make_unique<StubProvider>("templates", Contents));
  Json templates = Send("resources/templates/list", Json::object())["result"]["resourceTemplates"];
  ASSERT_EQ(templates.size(), 3u) << templates.dump();
  EXPECT_EQ(templates[0]["uriTemplate"], "datapipelines://docs/skill/{reference}");
  EXPECT_EQ(templates[1]["uriTemplate"], "datapipelines://templates/{id}");
  EXPECT_EQ(templates[2]["uriTemplate"], "datapipelines://executions/{id}");
}

TEST_F(ResourceRouting, ProviderFailuresMapToJsonRpcErrorsAndAuditCodes) {
  server_->AddResourceProvider(std::make_unique<StubProvider>("pipelines", [] {
    return Json(nullptr);  // never reached: the test reads only the kinds below
  }));
  server_->AddResourceProvider(std::make_unique<StubProvider>("datasources", []() -> Json {
    throw DomainError(ErrorCode{"pipeline.execution.datasource_unreachable", 502}, "down");
  }));
  server_->AddResourceProvider(std::make_unique<StubProvider>("executions", []() -> Json {
    throw std::runtime_error("postgresql://user:hunter2@db/x refused");
  }));
  server_->AddResourceProvider(std::make_unique<StubProvider>("templates", []() -> Json {
    throw DomainError(ErrorCode{"template.not_found", 404}, "No template 'a/b'.");
  }));
  struct Expectation {
    const char* uri;
    int rpc_code;
    const char* audit_code;
  };
  for (const Expectation& e :
       {Expectation{"datapipelines://templates/a/b", -32002, "resource_not_found"},
        Expectation{"datapipelines://datasources/x", -32603, "internal_error"},
        Expectation{"datapipelines://executions/x", -32603, "internal_error"}}) {
    Json response = Send("resources/read", Json{{"uri", e.uri}});
    EXPECT_EQ(response["error"]["code"], e.rpc_code) << response.dump();
    EXPECT_EQ(response.dump().find("hunter2"), std::string::npos) << response.dump();
    Json details = LastAuditDetails();
    EXPECT_EQ(details["uri"], e.uri);
    EXPECT_EQ(details["outcome"], "error");
    EXPECT_EQ(details["code"], e.audit_code);
    EXPECT_EQ(details.dump().find("hunter2"), std::string::npos);
  }
}

// Lists datapipelines://{kind}/{id} for each id in a list the test may change mid-run.
class ListProvider : public ResourceProvider {
 public:
  ListProvider(std::string kind, std::vector<std::string>& ids)
      : kind_(std::move(kind)), ids_(ids) {}
  std::string_view Kind() const override { return kind_; }
  Json List(const Principal&) override {
    Json out = Json::array();
    for (const auto& id : ids_) {
      out.push_back({{"uri", "datapipelines://" + kind_ + "/" + id}, {"name", id}});
    }
    return out;
  }
  std::optional<Json> Read(const Principal&, std::string_view) override { return std::nullopt; }
  Json UriTemplates() const override { return Json::array(); }

 private:
  std::string kind_;
  std::vector<std::string>& ids_;
};

std::string Id(int i) {
  char id[16];
  std::snprintf(id, sizeof id, "id-%04d", i);
  return id;
}

// Keyset paging (§7.3): a row inserted before the page boundary mid-run neither repeats nor
// pushes another row off the next page; one inserted after it appears; each kind by id.
TEST_F(ResourceRouting, PagesAreStableUnderInsertsAndOrderedById) {
  std::vector<std::string> pipelines, executions;
  for (int i = 249; i >= 0; i -= 2) pipelines.push_back(Id(i));  // registered out of order
  for (int i = 0; i < 60; ++i) executions.push_back(Id(i));
  server_->AddResourceProvider(std::make_unique<ListProvider>("executions", executions));
  server_->AddResourceProvider(std::make_unique<ListProvider>("pipelines", pipelines));
  const size_t docs = BuiltInSkillDocs().List().size();
  Json first = Send("resources/list", Json::object())["result"];
  ASSERT_EQ(first["resources"].size(), 100u);
  ASSERT_TRUE(first["nextCursor"].is_string());
  std::string last = first["resources"][99]["uri"];
  // Mid-run: one pipeline sorting before the boundary, one after.
  pipelines.push_back(Id(0) + "a");
  pipelines.push_back(Id(248) + "z");
  std::vector<std::string> uris;
  for (const Json& r : first["resources"]) uris.push_back(r["uri"]);
  Json params{{"cursor", first["nextCursor"]}};
  for (int pages = 1;; ++pages) {
    ASSERT_LT(pages, 10);
    Json page = Send("resources/list", params)["result"];
    for (const Json& r : page["resources"]) uris.push_back(r["uri"]);
    if (!page.contains("nextCursor")) break;
    EXPECT_EQ(page["resources"].size(), 100u);
    params["cursor"] = page["nextCursor"];
  }
  EXPECT_EQ(uris.size(), docs + 125 + 60 + 1) << "missed or repeated rows";
  EXPECT_EQ(std::set<std::string>(uris.begin(), uris.end()).size(), uris.size());
  EXPECT_EQ(std::count(uris.begin(), uris.end(), "datapipelines://pipelines/" + Id(0) + "a"), 0);
  EXPECT_EQ(std::count(uris.begin(), uris.end(), "datapipelines://pipelines/" + Id(248) + "z"), 1);
  std::vector<std::string> entities(uris.begin() + static_cast<std::ptrdiff_t>(docs), uris.end());
  std::vector<std::string> sorted = entities;
  std::sort(sorted.begin(), sorted.end(), [](const std::string& a, const std::string& b) {
    bool pa = a.rfind("datapipelines://pipelines/", 0) == 0;
    bool pb = b.rfind("datapipelines://pipelines/", 0) == 0;
    return pa != pb ? pa : a < b;
  });
  EXPECT_EQ(entities, sorted);
  EXPECT_EQ(entities.back(), "datapipelines://executions/" + Id(59));
}

// A cursor is opaque and server-issued: garbage, an edited one, the old offset form and
// another key's cursor are all invalid params.
TEST_F(ResourceRouting, ForgedOrForeignCursorsAreInvalidParams) {
  std::vector<std::string> pipelines;
  for (int i = 0; i < 150; ++i) pipelines.push_back(Id(i));
  server_->AddResourceProvider(std::make_unique<ListProvider>("pipelines", pipelines));
  std::string cursor = Send("resources/list", Json::object())["result"]["nextCursor"];
  EXPECT_TRUE(Send("resources/list", Json{{"cursor", cursor}}).contains("result"));
  std::string payload = Base64Decode(cursor.substr(0, cursor.find('.')));
  std::string edited = payload;
  edited.replace(edited.find("id-"), 3, "id-0");
  std::vector<Json> forged = {
      "xyz",
      "",
      "eyJvIjoxMDB9",
      42,
      Json::object(),
      Base64Encode(edited) + cursor.substr(cursor.find('.')),
      cursor.substr(0, cursor.size() - 2) + (cursor.back() == 'A' ? "BA" : "AA"),
      cursor + "x"};
  for (const Json& bad : forged) {
    Json response = Send("resources/list", Json{{"cursor", bad}});
    EXPECT_EQ(response["error"]["code"], -32602) << bad.dump() << " " << response.dump();
  }
  principal_.key_id = "dpk_OTHEROTHEROT";
  EXPECT_EQ(Send("resources/list", Json{{"cursor", cursor}})["error"]["code"], -32602);
  // Another McpServer with the same signing key (another instance) accepts it.
  principal_.key_id = "dpk_TESTTESTTEST";
  McpServer a(catalog_, *audit_, BuiltInSkillDocs(), "test", "shared-key");
  McpServer b(catalog_, *audit_, BuiltInSkillDocs(), "test", "shared-key");
  a.AddResourceProvider(std::make_unique<ListProvider>("pipelines", pipelines));
  b.AddResourceProvider(std::make_unique<ListProvider>("pipelines", pipelines));
  Json request{
      {"jsonrpc", "2.0"}, {"id", 1}, {"method", "resources/list"}, {"params", Json::object()}};
  Json issued = a.HandleRequest(request, {principal_, correlation_, "127.0.0.1"});
  request["params"]["cursor"] = issued["result"]["nextCursor"];
  Json next = b.HandleRequest(request, {principal_, correlation_, "127.0.0.1"});
  ASSERT_TRUE(next.contains("result")) << next.dump();
  EXPECT_FALSE(next["result"]["resources"].empty());
}

TEST_F(ResourceRouting, AReadWithoutUriIsAuditedAsInvalidParams) {
  Json response = Send("resources/read", Json::object());
  EXPECT_EQ(response["error"]["code"], -32602);
  Json details = LastAuditDetails();
  EXPECT_EQ(details["outcome"], "invalid_params");
  EXPECT_EQ(details["uri"], "");
}

}  // namespace
}  // namespace dp
