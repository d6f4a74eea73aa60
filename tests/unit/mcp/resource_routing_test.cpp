// McpServer's resource seam with hand-written providers: §7.3 kind order whatever the
// registration order, first-owner routing, and how provider failures become JSON-RPC errors
// and mcp.resource.read rows (the real providers are covered in tests/integration/mcp_resources).
#include <gtest/gtest.h>

#include <functional>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/service/audit_log.hpp"
#include "datapipelines/service/auth_service.hpp"
#include "datapipelines/service/skill_docs.hpp"
#include "datapipelines/store/metadata_store.hpp"
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
    server_ = std::make_unique<McpServer>(catalog_, *auth_, *audit_, BuiltInSkillDocs(), "test");
    principal_.user_id = "00000000-0000-4000-8000-00000000000a";
    principal_.key_id = "dpk_TESTTESTTEST";
  }
  Json Send(const std::string& method, Json params) {
    Json request{{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", params}};
    return server_->HandleRequest(request, {principal_, correlation_, "127.0.0.1"});
  }
  Json LastAuditDetails() { return store_->ListAudit("mcp.resource.read", 1).at(0).details; }

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

TEST_F(ResourceRouting, AReadWithoutUriIsAuditedAsInvalidParams) {
  Json response = Send("resources/read", Json::object());
  EXPECT_EQ(response["error"]["code"], -32602);
  Json details = LastAuditDetails();
  EXPECT_EQ(details["outcome"], "invalid_params");
  EXPECT_EQ(details["uri"], "");
}

}  // namespace
}  // namespace dp
