// The web UI's admin and account verbs (WorkspaceAdminService, AccountService) against a real
// SQLite metadata store: who may do what, from tests/ui_cases/admin_matrix.json, and what a
// change leaves behind (the role, the membership, the password that signs in).
#include <fstream>

#include "datapipelines/service/account_service.hpp"
#include "datapipelines/service/workspace_admin_service.hpp"
#include "integration/auth/auth_test_fixture.hpp"

namespace dp::test {
namespace {

using WorkspaceAdmin = AuthServiceTest;

Json Matrix() {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/ui_cases/admin_matrix.json");
  return Json::parse(in);
}

TEST_F(WorkspaceAdmin, EachVerbIsAllowedExactlyToTheRolesTheMatrixNames) {
  WorkspaceAdminService admin(*service_);
  AccountService account(*service_);
  const Json matrix = Matrix();
  ASSERT_FALSE(matrix["cases"].empty());
  int n = 0;
  for (const Json& c : matrix["cases"]) {
    const std::string actor_role = c["actor"];
    SCOPED_TRACE(actor_role);
    const bool super = actor_role == "super_admin";
    const std::string email = actor_role + std::to_string(n) + "@example.com";
    const std::string target = "target" + std::to_string(n++) + "@example.com";
    MakeMember(email, super ? Role::kViewer : *ParseRole(actor_role), "default", super);
    MakeMember(target, Role::kViewer);
    Principal me = service_->AuthenticateSession(service_->Login(email, kPassword, "").token);
    ASSERT_TRUE(me.via_session);
    std::vector<std::function<void()>> verbs = {
        [&] { admin.Members(me); },
        [&] { admin.SetMember(me, target, Role::kOperator); },
        [&] { admin.RemoveMember(me, target); },
        [&] { admin.Users(me); },
        [&] { admin.Workspaces(me); },
        [&] { account.ChangePassword(me, "not the password", "a long enough password"); },
        [&] { account.ChangePassword(me, kPassword, "short"); },
        [&] { account.ChangePassword(me, kPassword, "a long enough password"); },
    };
    ASSERT_EQ(verbs.size(), matrix["verbs"].size());
    for (size_t i = 0; i < verbs.size(); ++i) {
      EXPECT_EQ(CodeOf(verbs[i]), c["expect"][i].get<std::string>())
          << matrix["verbs"][i].get<std::string>();
    }
    // The password changed only by the last, allowed call: the new one signs in, the old not.
    EXPECT_EQ(CodeOf([&] { service_->Login(email, "a long enough password", ""); }), "<none>");
    EXPECT_EQ(CodeOf([&] { service_->Login(email, kPassword, ""); }),
              "auth.login.invalid_credentials");
  }
}

TEST_F(WorkspaceAdmin, MemberVerbsChangeTheActiveWorkspaceOnly) {
  WorkspaceAdminService admin(*service_);
  MakeMember("admin@example.com", Role::kWsAdmin);
  MakeMember("other-admin@example.com", Role::kWsAdmin, "other");
  MakeMember("bob@example.com", Role::kViewer);
  service_->SetMembership("other", "bob@example.com", Role::kViewer);
  Principal me =
      service_->AuthenticateSession(service_->Login("admin@example.com", kPassword, "").token);
  ASSERT_EQ(me.workspace_name, "default");
  admin.SetMember(me, "bob@example.com", Role::kAuthor);
  auto role_in = [&](const std::string& ws) {
    for (const auto& m : service_->ListMembers(ws)) {
      if (m.email == "bob@example.com") return std::string(ToString(m.role));
    }
    return std::string("<none>");
  };
  EXPECT_EQ(role_in("default"), "author");
  EXPECT_EQ(role_in("other"), "viewer");
  admin.RemoveMember(me, "bob@example.com");
  EXPECT_EQ(role_in("default"), "<none>");
  EXPECT_EQ(role_in("other"), "viewer");
  EXPECT_EQ(CodeOf([&] { admin.RemoveMember(me, "bob@example.com"); }), "user.not_found");
  EXPECT_EQ(CodeOf([&] { admin.SetMember(me, "nobody@example.com", Role::kViewer); }),
            "user.not_found");
}

TEST_F(WorkspaceAdmin, AKeyNeverChangesAPassword) {
  AccountService account(*service_);
  MakeMember("alice@example.com", Role::kWsAdmin);
  Principal key =
      service_->AuthenticateApiKey(KeyFor("alice@example.com", Scope::kAuthor).plaintext, "");
  EXPECT_EQ(CodeOf([&] { account.ChangePassword(key, kPassword, "a long enough password"); }),
            "auth.session.required");
  EXPECT_EQ(CodeOf([&] { service_->Login("alice@example.com", kPassword, ""); }), "<none>");
}

}  // namespace
}  // namespace dp::test
