// The operation table as the server enforces it: every MCP tool and every REST route of the
// composed Application, called with the next-lower key scope and with the issuer holding the
// most a member can hold short of the floor, is refused on exactly that axis with the floor the
// table gives; every tool called at its floor gets past the access check (to the schema or the
// service). The table itself is compared row by row with the matrix of the auth spec,
// transcribed in cases/operation_matrix.txt.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "datapipelines/app/application.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/rest/rest_api.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/service/identity/operation.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

const std::set<std::string> kAccessCodes = {"auth.scope.insufficient", "auth.role_required",
                                            "auth.key_issuer_role_lost",
                                            "workspace.membership_required"};

struct Refusal {
  std::string code = "<none>";
  Json details;
};

class OperationWalk : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    Config config;
    config.metadata_url = ":memory:";
    config.data_dir = (fs::temp_directory_path() / "dp_operation_walk_test").string();
    config.blocking_threads = 1;
    config.io_threads = 1;
    app_ = new Application(config);
    app_->Auth().accounts().CreateUser("owner@example.com", "owner", "correct horse battery",
                                       false);
    app_->Auth().accounts().CreateWorkspace("walk", "", "owner@example.com");
  }
  static void TearDownTestSuite() {
    delete app_;
    app_ = nullptr;
    keys_.clear();
  }

  // The plaintext of a key of `scope` whose issuer now holds `flags` in the workspace (nullopt:
  // no longer a member): issued while a workspace admin (who may issue any scope), then
  // demoted or removed, so flags below what the scope needs are the "issuer lost the role" case.
  static const std::string& Key(Scope scope, std::optional<MemberFlags> flags) {
    std::string name =
        std::string(ToString(scope)) + "_" + (flags ? FlagsName(*flags) : std::string("none"));
    for (char& c : name) {
      if (c == '+') c = '_';
    }
    auto found = keys_.find(name);
    if (found != keys_.end()) return found->second;
    std::string email = name + "@example.com";
    AuthService& auth = app_->Auth();
    auth.accounts().CreateUser(email, name, "correct horse battery", false);
    auth.accounts().SetMembership("walk", email, MemberFlags{true, true, true});
    IssuedApiKey key = auth.keys().CreateApiKeyFor(email, "walk", "k", scope, KeyKind::kUser, {});
    if (flags) {
      auth.accounts().SetMembership("walk", email, *flags);
    } else {
      auth.accounts().RemoveMembership("walk", email);
    }
    return keys_.emplace(name, key.plaintext).first->second;
  }

  static Refusal CallTool(std::string_view tool, Scope scope, std::optional<MemberFlags> flags) {
    Principal principal =
        app_->Auth().authentication().AuthenticateApiKey(Key(scope, flags), "127.0.0.1");
    Json request = {{"jsonrpc", "2.0"},
                    {"id", 1},
                    {"method", "tools/call"},
                    {"params", {{"name", std::string(tool)}, {"arguments", Json::object()}}}};
    const std::string correlation = "walk";
    Json response =
        app_->Mcp().HandleRequest(request, McpRequestContext{principal, correlation, "::1"});
    Refusal out;
    if (response.contains("error")) {
      out.code = "jsonrpc:" + std::to_string(response["error"]["code"].get<int>());
      return out;
    }
    if (!response["result"]["isError"].get<bool>()) return out;
    Json payload = Json::parse(response["result"]["content"][0]["text"].get<std::string>());
    out.code = payload["error"]["code"].get<std::string>();
    out.details = payload["error"].value("details", Json());
    return out;
  }

  // Every `{capture}` of the pattern becomes "1" (an id, a name and a version alike): the
  // router refuses before the handler would look anything up.
  static Refusal CallRoute(const RestRouteInfo& route, Scope scope,
                           std::optional<MemberFlags> flags) {
    HttpRequest request;
    request.method = route.method;
    // A workspace route names the key's own workspace: naming another is not-found before any
    // floor is judged (a workspace you cannot reach does not exist).
    std::string pattern = std::regex_replace(
        route.pattern, std::regex(R"(^/api/v1/workspaces/\{name\})"), "/api/v1/workspaces/walk");
    request.path = std::regex_replace(pattern, std::regex(R"(\{[a-z_]+\})"), "1");
    request.target = request.path;
    if (route.method == "POST" || route.method == "PUT") request.body = "{}";
    request.headers.Add("DP-API-Key", Key(scope, flags));
    request.remote_ip = "127.0.0.1";
    request.correlation_id = "walk";
    HttpResponse response = app_->Rest().HandleApi(request);
    Refusal out;
    Json body = response.body.empty() ? Json() : Json::parse(response.body);
    if (body.is_object() && body.contains("error")) {
      out.code = body["error"]["code"].get<std::string>();
      out.details = body["error"].value("details", Json());
    }
    return out;
  }

  // The most a member can hold and still fall short of `floor` (nullopt: not a member at all,
  // the only way to fall short of what every member holds).
  static std::optional<MemberFlags> JustBelow(RoleFloor floor) {
    switch (floor) {
      case RoleFloor::kView:
      case RoleFloor::kExecute:
        return std::nullopt;
      case RoleFloor::kAuthor:
        return MemberFlags{false, true, false};
      case RoleFloor::kSwitch:
        return MemberFlags{};
      case RoleFloor::kPromote:
        return MemberFlags{true, false, false};
      case RoleFloor::kWsAdmin:
        return MemberFlags{true, true, false};
      case RoleFloor::kSuperAdmin:
        return MemberFlags{true, true, true};
    }
    return std::nullopt;
  }

  // The least a member can hold and meet `floor`.
  static MemberFlags AtFloor(RoleFloor floor) {
    switch (floor) {
      case RoleFloor::kAuthor:
        return MemberFlags{true, false, false};
      case RoleFloor::kSwitch:
      case RoleFloor::kPromote:
        return MemberFlags{false, true, false};
      case RoleFloor::kWsAdmin:
      case RoleFloor::kSuperAdmin:
        return MemberFlags{true, false, true};
      default:
        return MemberFlags{};
    }
  }

  // Refused on the scope axis at the floor's scope, and on the role axis just below the floor.
  template <typename Call>
  static void ExpectNextLowerRefused(const OperationAccess& access, const std::string& what,
                                     Call call) {
    if (access.min_scope != Scope::kRead) {
      Scope lower = static_cast<Scope>(static_cast<int>(access.min_scope) - 1);
      Refusal refusal = call(lower, MemberFlags{true, true, true});
      EXPECT_EQ(refusal.code, "auth.scope.insufficient")
          << what << " with a " << ToString(lower) << " key";
      EXPECT_EQ(refusal.details.value("required", ""), ToString(access.min_scope)) << what;
    }
    std::optional<MemberFlags> lower = JustBelow(access.min_role);
    Refusal refusal = call(access.min_scope, lower);
    EXPECT_TRUE(refusal.code == "auth.role_required" || refusal.code == "auth.key_issuer_role_lost")
        << what << " by " << (lower ? FlagsName(*lower) : "a non-member") << ": " << refusal.code;
    EXPECT_EQ(refusal.details.value("required", ""), ToString(access.min_role)) << what;
  }

  static Application* app_;
  static std::map<std::string, std::string> keys_;
};

Application* OperationWalk::app_ = nullptr;
std::map<std::string, std::string> OperationWalk::keys_;

TEST_F(OperationWalk, EveryToolRefusesTheNextLowerScopeAndRole) {
  std::size_t tools = 0;
  for (const CatalogEntry* entry : app_->Catalog().Served()) {
    const ToolDefinition& tool = *entry->definition;
    ExpectNextLowerRefused(tool.access(), std::string(tool.name()),
                           [&](Scope scope, std::optional<MemberFlags> flags) {
                             return CallTool(tool.name(), scope, flags);
                           });
    ++tools;
  }
  EXPECT_EQ(tools, 41u);
}

TEST_F(OperationWalk, EveryToolAdmitsItsFloor) {
  for (const CatalogEntry* entry : app_->Catalog().Served()) {
    const OperationAccess& access = entry->definition->access();
    Refusal refusal = CallTool(access.name, access.min_scope, AtFloor(access.min_role));
    EXPECT_EQ(kAccessCodes.count(refusal.code), 0u) << access.name << ": " << refusal.code;
  }
}

TEST_F(OperationWalk, EveryRestRouteRefusesTheNextLowerScopeAndRole) {
  std::vector<RestRouteInfo> routes = app_->Rest().Routes();
  ASSERT_GE(routes.size(), 57u);
  std::set<std::string> seen;
  for (const RestRouteInfo& route : routes) {
    std::string what = route.method + " " + route.pattern;
    EXPECT_TRUE(seen.insert(what).second) << what << " is mounted twice";
    ExpectNextLowerRefused(AccessOf(route.operation), what,
                           [&](Scope scope, std::optional<MemberFlags> flags) {
                             return CallRoute(route, scope, flags);
                           });
  }
}

// Each tool and the REST verb that calls the same service method share one row, so they can
// never disagree; a row no surface names would be a floor nobody enforces at the edge.
TEST_F(OperationWalk, EveryRowIsReachedFromASurfaceOrAService) {
  std::set<Operation> named;
  for (const CatalogEntry* entry : app_->Catalog().Served()) {
    named.insert(entry->definition->operation);
  }
  for (const RestRouteInfo& route : app_->Rest().Routes()) named.insert(route.operation);
  // Checked inside a service only: endpoint key issuance (through POST /auth/api-keys) and
  // retiring another workspace's fact (inside a tool call).
  const std::set<Operation> service_only = {Operation::kEndpointsIssueKey,
                                            Operation::kSemanticsRetireForeignFact};
  for (const OperationAccess& row : AllOperations()) {
    EXPECT_NE(named.count(row.operation) + service_only.count(row.operation), 0u) << row.name;
    EXPECT_FALSE(named.count(row.operation) && service_only.count(row.operation)) << row.name;
  }
}

// The table is the spec's matrix: each row of cases/operation_matrix.txt (operation, min
// scope, min role, as auth.md §7.6 states them) is the row the server enforces, and every
// operation of the table has a line there.
TEST(OperationMatrix, TheTableIsTheSpecsMatrix) {
  std::ifstream cases(std::string(DP_SOURCE_DIR) + "/tests/unit/auth/cases/operation_matrix.txt");
  ASSERT_TRUE(cases) << "tests/unit/auth/cases/operation_matrix.txt";
  std::map<std::string, std::pair<std::string, std::string>> spec;
  std::string line;
  while (std::getline(cases, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, scope, role;
    fields >> name >> scope >> role;
    EXPECT_TRUE(spec.emplace(name, std::make_pair(scope, role)).second) << name << " twice";
  }
  for (const OperationAccess& row : AllOperations()) {
    auto found = spec.find(std::string(row.name));
    if (found == spec.end()) {
      ADD_FAILURE() << row.name << " is not in the matrix";
      continue;
    }
    EXPECT_EQ(found->second.first, ToString(row.min_scope)) << row.name;
    EXPECT_EQ(found->second.second, ToString(row.min_role)) << row.name;
    spec.erase(found);
  }
  for (const auto& [name, floors] : spec) ADD_FAILURE() << name << " is in no row of the table";
}

}  // namespace
}  // namespace dp
