#pragma once
// The whole template stack over a real SQLite metadata store: AuthService, TemplateService,
// the MCP dispatcher with the seven tools bound, and RestApi with /api/v1/templates mounted —
// driven the way the HTTP layer drives them (McpServer::HandleRequest, RestApi::HandleApi with
// a real API key). Pipelines do not exist yet, so the only stand-in is the pin source: a
// fixed list of pins the tests set, the shape the pipeline service will answer with.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/mcp/tools/template_tools.hpp"
#include "datapipelines/rest/rest_api.hpp"
#include "datapipelines/rest/template_routes.hpp"
#include "datapipelines/results/rate_limiter.hpp"
#include "datapipelines/service/audit_log.hpp"
#include "datapipelines/service/auth_service.hpp"
#include "datapipelines/service/request_authenticator.hpp"
#include "datapipelines/service/skill_docs.hpp"
#include "datapipelines/service/template_pin_source.hpp"
#include "datapipelines/service/template_service.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "support/core_stack.hpp"

namespace dp::test {

class FixedPins : public TemplatePinSource {
 public:
  std::vector<TemplatePin> WorkingVersionPins(const std::string& workspace_id,
                                              const std::string& template_id,
                                              int version) override {
    std::vector<TemplatePin> out;
    for (const auto& pin : AllPins(workspace_id, template_id)) {
      if (pin.template_version == version) out.push_back(pin);
    }
    return out;
  }
  std::vector<TemplatePin> AllPins(const std::string& workspace_id,
                                   const std::string& template_id) override {
    auto it = pins.find(workspace_id + "|" + template_id);
    return it == pins.end() ? std::vector<TemplatePin>{} : it->second;
  }
  std::map<std::string, std::vector<TemplatePin>> pins;  // "workspace|template" → pins
};

// A tool call's outcome: the JSON-RPC error code (0 when none), isError and the payload.
struct ToolOutcome {
  int rpc_error = 0;
  bool is_error = false;
  Json payload;
  std::string Code() const {
    if (rpc_error) return "jsonrpc:" + std::to_string(rpc_error);
    return is_error ? payload["error"]["code"].get<std::string>() : "<none>";
  }
};

struct RestOutcome {
  int status = 0;
  Json body;
  std::string Code() const {
    return body.contains("error") ? body["error"]["code"].get<std::string>() : "<none>";
  }
};

class TemplateStack : public ::testing::Test {
 protected:
  void SetUp() override {
    test::OpenCoreStack(store_, audit_, auth_);
    limiter_ = OpenRateLimiter("memory", RateLimitPolicy{100000, 1000000});
    authenticator_ = std::make_unique<RequestAuthenticator>(*auth_, *limiter_, *store_);
    templates_ = std::make_unique<TemplateService>(*store_, *auth_, &pins_);
    BindTemplateTools(catalog_, *templates_);
    mcp_ = std::make_unique<McpServer>(catalog_, *auth_, *audit_, BuiltInSkillDocs(), "test");
    rest_ =
        std::make_unique<RestApi>(*auth_, *authenticator_, BuiltInSkillDocs(), RestApiOptions{});
    rest_->Mount("/api/v1/templates", TemplateRoutes(*templates_));
    AddUser("alice", "default", Role::kAuthor, Scope::kAuthor);
    AddUser("bob", "default", Role::kAuthor, Scope::kAuthor);
    AddUser("victor", "default", Role::kViewer, Scope::kRead);
    AddUser("olga", "other", Role::kAuthor, Scope::kAuthor);
  }

  void AddUser(const std::string& name, const std::string& workspace, Role role, Scope scope) {
    std::string email = name + "@example.com";
    auth_->CreateUser(email, name, "correct horse battery", false);
    if (!store_->FindWorkspaceByName(workspace)) auth_->CreateWorkspace(workspace, "", email);
    auth_->SetMembership(workspace, email, role);
    IssuedApiKey key = auth_->CreateApiKeyFor(email, workspace, "k", scope, KeyKind::kUser, {});
    keys_[name] = key.plaintext;
    principals_[name] = auth_->AuthenticateApiKey(key.plaintext, "127.0.0.1");
  }

  const Principal& P(const std::string& name) { return principals_.at(name); }

  ToolOutcome Tool(const std::string& user, const std::string& tool, Json arguments) {
    Json request = {{"jsonrpc", "2.0"},
                    {"id", 1},
                    {"method", "tools/call"},
                    {"params", {{"name", tool}, {"arguments", std::move(arguments)}}}};
    std::string correlation = "corr-" + std::to_string(++calls_);
    Json response = mcp_->HandleRequest(request, McpRequestContext{P(user), correlation, "::1"});
    ToolOutcome out;
    if (response.contains("error")) {
      out.rpc_error = response["error"]["code"].get<int>();
      out.payload = response["error"];
      return out;
    }
    out.is_error = response["result"]["isError"].get<bool>();
    out.payload = Json::parse(response["result"]["content"][0]["text"].get<std::string>());
    return out;
  }

  // Asserts success and returns the payload.
  Json ToolOk(const std::string& user, const std::string& tool, Json arguments) {
    ToolOutcome out = Tool(user, tool, std::move(arguments));
    EXPECT_EQ(out.Code(), "<none>") << tool << ": " << out.payload.dump();
    return out.payload;
  }

  RestOutcome Rest(const std::string& user, const std::string& method, const std::string& target,
                   const Json& body = nullptr) {
    HttpRequest request;
    request.method = method;
    request.target = target;
    size_t question = target.find('?');
    request.path = target.substr(0, question);
    if (question != std::string::npos) request.query = target.substr(question + 1);
    if (!body.is_null()) request.body = body.dump();
    request.headers.Add("DP-API-Key", keys_.at(user));
    request.remote_ip = "127.0.0.1";
    request.correlation_id = "rest-" + std::to_string(++calls_);
    HttpResponse response = rest_->HandleApi(request);
    RestOutcome out;
    out.status = response.status;
    out.body = response.body.empty() ? Json() : Json::parse(response.body);
    return out;
  }

  static std::string Path(const std::string& id, const std::string& rest = "") {
    std::string encoded;  // ids hold [a-z0-9_.-/]: only the slash needs escaping
    for (char c : id) encoded += c == '/' ? std::string("%2F") : std::string(1, c);
    return "/api/v1/templates/" + encoded + rest;
  }

  // A minimal valid templates_create argument object.
  static Json SqlTemplate(const std::string& id, const std::string& body = "SELECT 1") {
    return Json{{"id", id},
                {"dialect", "POSTGRES"},
                {"display_name", "T " + id},
                {"description", "test template"},
                {"body", body}};
  }

  std::unique_ptr<MetadataStore> store_;
  std::unique_ptr<AuditLog> audit_;
  std::unique_ptr<AuthService> auth_;
  std::unique_ptr<RateLimiter> limiter_;
  std::unique_ptr<RequestAuthenticator> authenticator_;
  FixedPins pins_;
  std::unique_ptr<TemplateService> templates_;
  ToolCatalog catalog_;
  std::unique_ptr<McpServer> mcp_;
  std::unique_ptr<RestApi> rest_;
  std::map<std::string, std::string> keys_;
  std::map<std::string, Principal> principals_;
  int calls_ = 0;
};

}  // namespace dp::test
