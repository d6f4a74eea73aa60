// Data-driven dispatcher cases (tests/mcp_cases/*.json): each is a JSON-RPC request, the
// principal it runs as, and the subset of the response it must contain.
#include "datapipelines/mcp/mcp_server.hpp"
#include "support/core_stack.hpp"
#include "support/json_cases.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "datapipelines/mcp/tools/docs_tools.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/docs/skill_docs.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/store/metadata_store.hpp"

namespace dp {
namespace {

using test::ContainsSubset;

struct Case {
  std::string name;
  Json spec;
};

std::vector<Case> LoadCases() {
  std::vector<Case> cases;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(DP_SOURCE_DIR) + "/tests/mcp_cases")) {
    std::ifstream in(entry.path());
    for (auto& spec : Json::parse(in)) cases.push_back({spec["name"].get<std::string>(), spec});
  }
  return cases;
}

class McpServerCases : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    test::OpenCoreStack(store_, audit_, auth_);
    BindDocsTools(catalog_, BuiltInSkillDocs());
    server_ = std::make_unique<McpServer>(catalog_, *audit_, BuiltInSkillDocs(), "test");
  }

  Principal PrincipalFor(const std::string& kind) {
    Principal principal;
    principal.user_id = "00000000-0000-4000-8000-00000000000a";
    principal.key_id = "dpk_TESTTESTTEST";
    principal.scope = Scope::kAuthor;
    principal.membership = kind == "removed" ? std::nullopt : std::optional<MemberFlags>(MemberFlags{true, true, false});
    return principal;
  }

  std::unique_ptr<MetadataStore> store_;
  std::unique_ptr<AuditLog> audit_;
  std::unique_ptr<AuthService> auth_;
  ToolCatalog catalog_;
  std::unique_ptr<McpServer> server_;
};

TEST_P(McpServerCases, Matches) {
  const Json& spec = GetParam().spec;
  Principal principal = PrincipalFor(spec.value("principal", std::string("author")));
  std::string correlation_id = "00000000-0000-4000-8000-000000000001";
  Json response = server_->HandleRequest(spec["request"], {principal, correlation_id, "127.0.0.1"});
  std::string where;
  EXPECT_TRUE(ContainsSubset(response, spec["expect"], where)) << where << "\n" << response.dump(2);
  EXPECT_EQ(response["jsonrpc"], "2.0");
  if (spec.contains("error_message_contains")) {
    EXPECT_NE(response["error"]["message"].get<std::string>().find(
                  spec["error_message_contains"].get<std::string>()),
              std::string::npos)
        << response.dump();
  }
  if (spec.contains("payload")) {
    Json payload = Json::parse(response["result"]["content"][0]["text"].get<std::string>());
    EXPECT_TRUE(ContainsSubset(payload, spec["payload"], where)) << where << "\n"
                                                                 << payload.dump(2);
  }
  if (spec["request"]["method"] == "tools/call") {
    auto rows = store_->Audit().ListAudit("mcp.tool.", 10);
    ASSERT_EQ(rows.size(), 1u) << "exactly one mcp.tool.called, no write for read-only tools";
    EXPECT_EQ(rows[0].event, "mcp.tool.called");
    EXPECT_EQ(rows[0].correlation_id, correlation_id);
  }
}

// The spliced tools/list bytes are exactly what the generic path would serialize.
TEST_F(McpServerCases, ToolsListTextEqualsTheGenericAnswer) {
  Principal principal = PrincipalFor("author");
  std::string correlation_id = "00000000-0000-4000-8000-000000000001";
  McpRequestContext context{principal, correlation_id, "127.0.0.1"};
  for (const char* text : {R"({"jsonrpc":"2.0","id":7,"method":"tools/list"})",
                           R"({"jsonrpc":"2.0","id":"x","method":"tools/list","params":{}})"}) {
    Json request = Json::parse(text);
    EXPECT_EQ(server_->HandleRequestText(request, context),
              server_->HandleRequest(request, context).dump());
  }
  Json ping = Json::parse(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  EXPECT_EQ(server_->HandleRequestText(ping, context), R"({"jsonrpc":"2.0","id":1,"result":{}})");
}

INSTANTIATE_TEST_SUITE_P(Dispatcher, McpServerCases, ::testing::ValuesIn(LoadCases()),
                         [](const auto& info) {
                           std::string name;
                           for (char c : info.param.name)
                             name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace dp
