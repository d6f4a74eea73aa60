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

#include "datapipelines/limits/rate_limiter.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/mcp/tools/template_tools.hpp"
#include "datapipelines/rest/rest_api.hpp"
#include "datapipelines/rest/template_routes.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/docs/skill_docs.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/service/identity/request_authenticator.hpp"
#include "datapipelines/service/templates/template_pin_source.hpp"
#include "datapipelines/service/templates/template_service.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "support/surface_stack.hpp"

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

class TemplateStack : public SurfaceStack {
 protected:
  void SetUp() override {
    OpenSurfaces();
    templates_ = std::make_unique<TemplateService>(store_->Templates(), &pins_);
    BindTemplateTools(catalog_, *templates_);
    StartMcp();
    rest_->Mount("/api/v1/templates", TemplateRoutes(*templates_));
    AddUser("alice", "default", MemberFlags{true, true, false}, Scope::kAuthor);
    AddUser("bob", "default", MemberFlags{true, true, false}, Scope::kAuthor);
    AddUser("victor", "default", MemberFlags{}, Scope::kRead);
    AddUser("olga", "other", MemberFlags{true, true, false}, Scope::kAuthor);
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

  FixedPins pins_;
  std::unique_ptr<TemplateService> templates_;
};

}  // namespace dp::test
