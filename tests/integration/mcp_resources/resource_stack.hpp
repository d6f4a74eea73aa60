#pragma once
// The MCP resource surface over a real stack: an in-memory SQLite metadata store,
// AuthService with real API keys, TemplateService and DatasourceService, and McpServer with
// the template tools bound and both resource providers registered the way Application does.
// Seeds two workspaces (default: alice author, victor viewer; other: olga author), templates
// with released and draft versions — one under a folder named `versions` — and three
// datasources, one granted only to `other`.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/resources/datasource_resources.hpp"
#include "datapipelines/mcp/resources/template_resources.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/mcp/tools/template_tools.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/docs/skill_docs.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/service/templates/template_service.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/util/crypto.hpp"
#include "datapipelines/util/secret_box.hpp"
#include "support/core_stack.hpp"

namespace dp::test {

inline constexpr const char* kDatasourcePassword = "pw-resource-secret-7731";

class ResourceStack : public ::testing::Test {
 protected:
  void SetUp() override {
    test::OpenCoreStack(store_, audit_, auth_);
    templates_ = std::make_unique<TemplateService>(store_->Templates());
    datasources_ = std::make_unique<DatasourceService>(store_->Datasources(), store_->Workspaces(),
                                                       *audit_, SecretBox(RandomBytes(32)));
    BindTemplateTools(catalog_, *templates_);
    mcp_ = std::make_unique<McpServer>(catalog_, *audit_, BuiltInSkillDocs(), "test");
    // Registered datasources-first on purpose: the listing order is §7.3's, not ours.
    mcp_->AddResourceProvider(std::make_unique<DatasourceResources>(*datasources_));
    mcp_->AddResourceProvider(std::make_unique<TemplateResources>(*templates_));
    AddUser("alice", "default", MemberFlags{true, true, false}, Scope::kAuthor);
    AddUser("victor", "default", MemberFlags{}, Scope::kRead);
    AddUser("olga", "other", MemberFlags{true, true, false}, Scope::kAuthor);
    // A key whose issuer lost the workspace: the services refuse it (auth.key_issuer_role_lost).
    principals_["alice-removed"] = principals_.at("alice");
    principals_["alice-removed"].membership = std::nullopt;
    SeedTemplates();
    SeedDatasources();
  }

  void AddUser(const std::string& name, const std::string& workspace, MemberFlags role, Scope scope) {
    std::string key =
        test::AddMemberWithKey(*auth_, store_->Workspaces(), name, workspace, role, scope);
    principals_[name] = auth_->authentication().AuthenticateApiKey(key, "127.0.0.1");
  }

  const Principal& P(const std::string& name) { return principals_.at(name); }

  static TemplateWrite Write(const std::string& body, const std::string& title,
                             const std::string& type = "sql") {
    TemplateWrite write;
    write.type = type;
    if (type == "sql") write.dialect = "POSTGRES";
    write.display_name = title;
    write.description = "resource test template";
    write.body = body;
    return write;
  }

  Json Create(const std::string& user, const std::string& id, TemplateWrite write) {
    write.id = id;
    return templates_->Create(P(user), write, /*confirm_new_root=*/true, TemplateSurface::kAgent);
  }

  // Version 1 released with `v1`, version 2 a draft with `v2`.
  void CreateWithDraft(const std::string& id, const std::string& v1, const std::string& v2) {
    Create("alice", id, Write(v1, "T " + id));
    Json released = templates_->Release(P("alice"), id, std::nullopt);
    templates_->Update(P("alice"), id, released["body_hash"].get<std::string>(),
                       Write(v2, "T " + id), TemplateSurface::kAgent);
  }

  void SeedTemplates() {
    CreateWithDraft("acme/finance/daily_orders.sql", "SELECT 1 AS v1", "SELECT 2 AS v2");
    CreateWithDraft("acme/versions/report.sql", "SELECT 'report'", "SELECT 'report v2'");
    Create("alice", "acme/pages/card.html", Write("<p>${title}</p>", "Card", "html"));
    // The same id in another workspace is another template; and one only `other` holds.
    Create("olga", "acme/finance/daily_orders.sql", Write("SELECT 'other ws'", "Other"));
    Create("olga", "beta/secret/only.sql", Write("SELECT 'olga only'", "Olga's"));
  }

  void SeedDatasources() {
    auto pg = [](const std::string& name) {
      return Json{{"name", name},
                  {"display_name", "PG " + name},
                  {"description", "resource test datasource"},
                  {"dialect", "POSTGRES"},
                  {"jdbc_url", "jdbc:postgresql://127.0.0.1:1/app"},
                  {"username", "app"},
                  {"password", kDatasourcePassword}};
    };
    datasources_->CreateAsOperator(pg("res-pg"), {"default"});
    datasources_->CreateAsOperator(pg("res-alpha"), {"default"});
    datasources_->CreateAsOperator(pg("res-hidden"), {"other"});
  }

  // A JSON-RPC request through the text path the HTTP endpoint uses.
  Json Call(const std::string& user, const std::string& method, Json params) {
    Json request{{"jsonrpc", "2.0"}, {"id", ++calls_}, {"method", method}};
    if (!params.is_null()) request["params"] = std::move(params);
    last_correlation_ = "corr-res-" + std::to_string(calls_);
    return Json::parse(
        mcp_->HandleRequestText(request, McpRequestContext{P(user), last_correlation_, "::1"}));
  }

  Json Read(const std::string& user, const std::string& uri) {
    return Call(user, "resources/read", Json{{"uri", uri}});
  }

  std::vector<AuditEvent> ResourceAudit(int limit = 100) {
    return store_->Audit().ListAudit("mcp.resource.read", limit);
  }

  std::unique_ptr<MetadataStore> store_;
  std::unique_ptr<AuditLog> audit_;
  std::unique_ptr<AuthService> auth_;
  std::unique_ptr<TemplateService> templates_;
  std::unique_ptr<DatasourceService> datasources_;
  ToolCatalog catalog_;
  std::unique_ptr<McpServer> mcp_;
  std::map<std::string, Principal> principals_;
  std::string last_correlation_;
  int calls_ = 0;
};

}  // namespace dp::test
