#pragma once
// The two surfaces a service test drives, the way the HTTP layer drives them: MCP tool calls
// through McpServer::HandleRequest and REST requests through RestApi::HandleApi, each as a
// real user with a real API key. A fixture builds its services, binds its tools into
// `catalog_`, mounts its routes on `rest_`, and inherits the callers below.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <memory>
#include <string>

#include "datapipelines/limits/rate_limiter.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/rest/rest_api.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/docs/skill_docs.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/service/identity/request_authenticator.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "support/core_stack.hpp"

namespace dp::test {

// A tool call's outcome: the JSON-RPC error code (0 when none), isError and the payload.
struct ToolOutcome {
  int rpc_error = 0;
  bool is_error = false;
  Json payload;
  std::string Code() const {
    if (rpc_error) return "jsonrpc:" + std::to_string(rpc_error);
    return is_error ? payload["error"]["code"].get<std::string>() : "<none>";
  }
  Json Details() const { return is_error ? payload["error"].value("details", Json()) : Json(); }
};

struct RestOutcome {
  int status = 0;
  Json body;
  std::string Code() const {
    return body.contains("error") ? body["error"]["code"].get<std::string>() : "<none>";
  }
  Json Details() const {
    return body.contains("error") ? body["error"].value("details", Json()) : Json();
  }
};

class SurfaceStack : public ::testing::Test {
 protected:
  // The store → audit → auth chain, the limiter and authenticator; `metadata_url` defaults to
  // a private in-memory SQLite database.
  void OpenSurfaces(const std::string& metadata_url = ":memory:") {
    OpenCoreStack(store_, audit_, auth_, CheapAuthOptions(), metadata_url);
    limiter_ = MakeLimiter();
    authenticator_ = std::make_unique<RequestAuthenticator>(auth_->authentication(), *limiter_,
                                                            store_->Workspaces());
    rest_ =
        std::make_unique<RestApi>(*auth_, *authenticator_, BuiltInSkillDocs(), RestApiOptions{});
  }
  // The rate limiter the surfaces charge: generous, so no test is refused by it.
  virtual std::unique_ptr<RateLimiter> MakeLimiter() {
    return OpenRateLimiter("memory", RateLimitPolicy{100000, 1000000});
  }
  // After the tools are bound: the MCP dispatcher over them.
  void StartMcp() {
    mcp_ = std::make_unique<McpServer>(catalog_, *audit_, BuiltInSkillDocs(), "test");
  }

  void AddUser(const std::string& name, const std::string& workspace, MemberFlags role, Scope scope) {
    std::string key =
        test::AddMemberWithKey(*auth_, store_->Workspaces(), name, workspace, role, scope);
    keys_[name] = key;
    principals_[name] = auth_->authentication().AuthenticateApiKey(key, "127.0.0.1");
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
                   const Json& body = nullptr, const std::string& if_match = "") {
    HttpRequest request;
    request.method = method;
    request.target = target;
    size_t question = target.find('?');
    request.path = target.substr(0, question);
    if (question != std::string::npos) request.query = target.substr(question + 1);
    if (!body.is_null()) request.body = body.dump();
    request.headers.Add("DP-API-Key", keys_.at(user));
    if (!if_match.empty()) request.headers.Add("If-Match", if_match);
    request.remote_ip = "127.0.0.1";
    request.correlation_id = "rest-" + std::to_string(++calls_);
    HttpResponse response = rest_->HandleApi(request);
    RestOutcome out;
    out.status = response.status;
    out.body = response.body.empty() ? Json() : Json::parse(response.body);
    return out;
  }

  std::unique_ptr<MetadataStore> store_;
  std::unique_ptr<AuditLog> audit_;
  std::unique_ptr<AuthService> auth_;
  std::unique_ptr<RateLimiter> limiter_;
  std::unique_ptr<RequestAuthenticator> authenticator_;
  ToolCatalog catalog_;
  std::unique_ptr<McpServer> mcp_;
  std::unique_ptr<RestApi> rest_;
  std::map<std::string, std::string> keys_;
  std::map<std::string, Principal> principals_;
  std::atomic<int> calls_{0};  // tests call from several threads (cancel, slots)
};

}  // namespace dp::test
