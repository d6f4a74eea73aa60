// Every template refusal, over MCP and over REST, from one case file (cases/refusals.json).
// Each case runs each surface against a freshly seeded stack, so a case that succeeds on one
// surface (REST's new root, REST's dialect change) cannot leak into the other.
//
// Case shape: {"name", "as": user, "mcp": {"tool", "arguments", "code", "details"?},
//              "rest": {"method", "path", "body"?, "status", "code", "details"?}}
// "code" is an error code, "jsonrpc:<n>" for a schema refusal, or "<none>" for success.
// A string "$hash:<id>" anywhere is replaced by that template's working body_hash.
#include <fstream>

#include "support/json_cases.hpp"
#include "template_fixture.hpp"

namespace dp::test {
namespace {

// The cases that exercise `surface` ("mcp" or "rest").
std::vector<Json> LoadCases(const char* surface) {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/integration/templates/cases/refusals.json");
  std::vector<Json> cases;
  for (const Json& c : Json::parse(in)) {
    if (c.contains(surface)) cases.push_back(c);
  }
  return cases;
}

class RefusalCases : public TemplateStack, public ::testing::WithParamInterface<Json> {
 protected:
  void SetUp() override {
    TemplateStack::SetUp();
    Seed();
  }

  void Create(const std::string& user, Json write) {
    RestOutcome out = Rest(user, "POST", "/api/v1/templates", write);
    ASSERT_EQ(out.status, 201) << out.body.dump();
  }

  // The shared starting state every case refers to.
  void Seed() {
    Json dates = SqlTemplate("acme/lib/dates.sql",
                             "<#macro range col start end>${col} >= ${start} AND ${col} < "
                             "${end}</#macro>");
    dates["is_library"] = true;
    Create("alice", dates);
    Create("alice", SqlTemplate("acme/lib/notlib.sql"));
    Json orders = SqlTemplate("acme/finance/orders.sql",
                              "SELECT * FROM orders WHERE <@d.range col=\"day\" start=\":a\" "
                              "end=\":b\"/> AND region = '${region}'");
    orders["imports"] =
        Json::array({{{"id", "acme/lib/dates.sql"}, {"version", 1}, {"alias", "d"}}});
    Create("alice", orders);
    Create("alice", SqlTemplate("acme/finance/released.sql"));
    ASSERT_EQ(Rest("alice", "POST", Path("acme/finance/released.sql", "/release")).status, 200);
    Create("alice", SqlTemplate("acme/finance/pinned.sql"));
    pins_.pins[P("alice").workspace_id + "|acme/finance/pinned.sql"] = {
        TemplatePin{"acme/finance/daily", "p-1", "fetch", 1, "DRAFT", 1}};
    Create("bob", SqlTemplate("acme/finance/bobs.sql"));
    Create("olga", SqlTemplate("acme/other/secret.sql"));
    Json other_lib = SqlTemplate("acme/other/lib.sql", "<#macro m>x</#macro>");
    other_lib["is_library"] = true;
    Create("olga", other_lib);
  }

  Json Substitute(const Json& value) {
    if (value.is_string()) {
      const std::string& text = value.get_ref<const std::string&>();
      if (text.rfind("$hash:", 0) == 0) {
        return templates_->Get(P("alice"), text.substr(6), std::nullopt)["body_hash"];
      }
      return value;
    }
    Json out = value;
    if (value.is_object()) {
      for (auto& [key, item] : out.items()) item = Substitute(item);
    } else if (value.is_array()) {
      for (auto& item : out) item = Substitute(item);
    }
    return out;
  }
};

class McpRefusals : public RefusalCases {};
class RestRefusals : public RefusalCases {};

TEST_P(McpRefusals, Refused) {
  const Json& c = GetParam();
  Json spec = Substitute(c["mcp"]);
  ToolOutcome out =
      Tool(c["as"].get<std::string>(), spec["tool"].get<std::string>(), spec["arguments"]);
  EXPECT_EQ(out.Code(), spec["code"].get<std::string>()) << out.payload.dump();
  if (spec.contains("details")) {
    EXPECT_TRUE(ContainsMembers(out.payload["error"]["details"], spec["details"]))
        << out.payload.dump(2);
  }
  // Every refusal is still one audited call (spec §14).
  auto rows = store_->Audit().ListAudit("mcp.tool.called", 5);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front().details["tool"], spec["tool"]);
}

TEST_P(RestRefusals, Refused) {
  const Json& c = GetParam();
  Json spec = Substitute(c["rest"]);
  RestOutcome out = Rest(c["as"].get<std::string>(), spec["method"].get<std::string>(),
                         spec["path"].get<std::string>(), spec.value("body", Json()));
  EXPECT_EQ(out.status, spec["status"].get<int>()) << out.body.dump();
  EXPECT_EQ(out.Code(), spec["code"].get<std::string>()) << out.body.dump();
  if (spec.contains("details")) {
    EXPECT_TRUE(ContainsMembers(out.body["error"]["details"], spec["details"])) << out.body.dump(2);
  }
  // A mutating call, refused or not, is exactly one rest.write row (the REST choke point).
  const std::string correlation = "rest-" + std::to_string(calls_);
  int writes = 0;
  for (const auto& row : store_->Audit().ListAudit("rest.write", 1000)) {
    if (row.correlation_id == correlation) {
      ++writes;
      EXPECT_EQ(row.details["status"], out.status);
      if (out.status >= 400) {
        EXPECT_EQ(row.details["code"], out.Code());
      }
    }
  }
  EXPECT_EQ(writes, spec["method"] == "GET" ? 0 : 1);
}

INSTANTIATE_TEST_SUITE_P(Cases, McpRefusals, ::testing::ValuesIn(LoadCases("mcp")), CaseName);
INSTANTIATE_TEST_SUITE_P(Cases, RestRefusals, ::testing::ValuesIn(LoadCases("rest")), CaseName);

}  // namespace
}  // namespace dp::test
