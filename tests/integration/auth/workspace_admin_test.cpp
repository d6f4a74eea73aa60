// The web UI's admin and account verbs (WorkspaceAdminService, AccountService) against a real
// SQLite metadata store: who may do what, from tests/ui_cases/admin_matrix.json, and what a
// change leaves behind (the role, the membership, the password that signs in).
#include <fstream>

#include "datapipelines/service/identity/account_service.hpp"
#include "datapipelines/service/identity/workspace_admin_service.hpp"
#include "integration/auth/auth_test_fixture.hpp"

namespace dp::test {
namespace {

// A request naming only the email (display name = the email, no membership).
NewUserRequest ByEmail(const std::string& email) {
  NewUserRequest request;
  request.email = email;
  return request;
}

using WorkspaceAdmin = AuthServiceTest;

Json Matrix() {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/ui_cases/admin_matrix.json");
  return Json::parse(in);
}

TEST_F(WorkspaceAdmin, EachVerbIsAllowedExactlyToTheRolesTheMatrixNames) {
  WorkspaceAdminService admin(service_->accounts());
  AccountService account(service_->accounts());
  const Json matrix = Matrix();
  ASSERT_FALSE(matrix["cases"].empty());
  int n = 0;
  for (const Json& c : matrix["cases"]) {
    const std::string actor_role = c["actor"];
    SCOPED_TRACE(actor_role);
    const bool super = actor_role == "super_admin";
    const std::string email = actor_role + std::to_string(n) + "@example.com";
    const std::string target = "target" + std::to_string(n++) + "@example.com";
    MakeMember(email, super ? MemberFlags{} : *ParseFlags(actor_role), "default", super);
    MakeMember(target, MemberFlags{});
    Principal me = service_->authentication().AuthenticateSession(
        service_->authentication().Login(email, kPassword, "").token);
    ASSERT_TRUE(me.via_session);
    std::vector<std::function<void()>> verbs = {
        [&] { admin.Members(me); },
        [&] { admin.SetMember(me, target, MemberFlags{}); },
        [&] { admin.RemoveMember(me, target); },
        [&] { admin.Users(me); },
        [&] { admin.Workspaces(me); },
        [&] { admin.CreateUser(me, ByEmail("new" + std::to_string(n) + "@example.com")); },
        [&] { admin.SetUserActive(me, target, false); },
        [&] { admin.CreateWorkspace(me, "ws" + std::to_string(n), ""); },
        [&] { account.ChangePassword(me, "not the password", "a long enough password", ""); },
        [&] { account.ChangePassword(me, kPassword, "short", ""); },
        [&] { account.ChangePassword(me, kPassword, "a long enough password", ""); },
    };
    ASSERT_EQ(verbs.size(), matrix["verbs"].size());
    for (size_t i = 0; i < verbs.size(); ++i) {
      EXPECT_EQ(CodeOf(verbs[i]), c["expect"][i].get<std::string>())
          << matrix["verbs"][i].get<std::string>();
    }
    // The password changed only by the last, allowed call: the new one signs in, the old not.
    EXPECT_EQ(
        CodeOf([&] { service_->authentication().Login(email, "a long enough password", ""); }),
        "<none>");
    EXPECT_EQ(CodeOf([&] { service_->authentication().Login(email, kPassword, ""); }),
              "auth.login.bad_credentials");
  }
}

TEST_F(WorkspaceAdmin, MemberVerbsChangeTheActiveWorkspaceOnly) {
  WorkspaceAdminService admin(service_->accounts());
  MakeMember("admin@example.com", MemberFlags{true, true, true});
  MakeMember("other-admin@example.com", MemberFlags{true, true, true}, "other");
  MakeMember("bob@example.com", MemberFlags{});
  service_->accounts().SetMembership("other", "bob@example.com", MemberFlags{});
  Principal me = service_->authentication().AuthenticateSession(
      service_->authentication().Login("admin@example.com", kPassword, "").token);
  ASSERT_EQ(me.workspace_name, "default");
  admin.SetMember(me, "bob@example.com", MemberFlags{true, true, false});
  auto role_in = [&](const std::string& ws) {
    for (const auto& m : service_->accounts().ListMembers(ws)) {
      if (m.email == "bob@example.com") return FlagsName(m.flags);
    }
    return std::string("<none>");
  };
  EXPECT_EQ(role_in("default"), "author+promoter");
  EXPECT_EQ(role_in("other"), "viewer");
  admin.RemoveMember(me, "bob@example.com");
  EXPECT_EQ(role_in("default"), "<none>");
  EXPECT_EQ(role_in("other"), "viewer");
  EXPECT_EQ(CodeOf([&] { admin.RemoveMember(me, "bob@example.com"); }), "user.not_found");
  EXPECT_EQ(CodeOf([&] { admin.SetMember(me, "nobody@example.com", (MemberFlags{})); }),
            "user.not_found");
}

TEST_F(WorkspaceAdmin, AnInstanceAdminCreatesAUserWhoseOneTimePasswordSignsIn) {
  WorkspaceAdminService admin(service_->accounts());
  User root = MakeMember("root@example.com", MemberFlags{}, "default", true);
  MakeMember("owner@example.com", MemberFlags{true, true, true}, "team");
  Principal me = service_->authentication().AuthenticateSession(
      service_->authentication().Login("root@example.com", kPassword, "").token);
  CreatedUser created =
      admin.CreateUser(me, {"New.Person@Example.com", "New Person", "team", MemberFlags{true, true, false}});
  EXPECT_EQ(created.user["email"], "new.person@example.com");
  EXPECT_EQ(created.user["super_admin"], false);
  EXPECT_GE(created.credential.password.size(), 24u);
  EXPECT_EQ(created.credential.mail.status, MailOutcomeStatus::kSkipped) << "no mail here";
  EXPECT_FALSE(created.membership_refusal);
  EXPECT_EQ(CodeOf([&] {
              service_->authentication().Login("new.person@example.com", created.credential.password,
                                               "");
            }),
            "<none>");
  bool member = false;
  for (const auto& m : service_->accounts().ListMembers("team")) {
    if (m.email == "new.person@example.com") member = m.flags == MemberFlags{true, true, false};
  }
  EXPECT_TRUE(member);
  // Who created it is on the audit event; the password is not.
  auto events = store_->Audit().ListAudit("auth.user.created", 10);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front().details.value("by_user_id", ""), root.id);
  EXPECT_EQ(events.front().details.dump().find(created.credential.password), std::string::npos);

  // An unknown workspace: the account stands, the refusal says why.
  CreatedUser orphan = admin.CreateUser(me, {"orphan@example.com", "", "no-such-ws", {}});
  ASSERT_TRUE(orphan.membership_refusal);
  EXPECT_EQ(orphan.membership_refusal->code().code, "workspace.not_found");
  EXPECT_EQ(CodeOf([&] {
              service_->authentication().Login("orphan@example.com", orphan.credential.password, "");
            }),
            "<none>");

  EXPECT_EQ(CodeOf([&] { admin.CreateUser(me, ByEmail("NEW.person@example.com")); }),
            "user.validation.duplicate_email");
  EXPECT_EQ(CodeOf([&] { admin.CreateUser(me, ByEmail("not an email")); }),
            "user.validation.email_invalid");
  Principal key = service_->authentication().AuthenticateApiKey(
      KeyFor("root@example.com", Scope::kAuthor).plaintext, "");
  EXPECT_EQ(CodeOf([&] { admin.CreateUser(key, ByEmail("by-key@example.com")); }),
            "auth.session.required");
  EXPECT_EQ(CodeOf([&] { service_->authentication().Login("by-key@example.com", kPassword, ""); }),
            "auth.login.bad_credentials");
}

TEST_F(WorkspaceAdmin, DeactivationStopsSignInAndNeverTargetsOneself) {
  WorkspaceAdminService admin(service_->accounts());
  MakeMember("root@example.com", MemberFlags{}, "default", true);
  MakeMember("bob@example.com", MemberFlags{});
  Principal me = service_->authentication().AuthenticateSession(
      service_->authentication().Login("root@example.com", kPassword, "").token);
  admin.SetUserActive(me, "bob@example.com", false);
  EXPECT_EQ(CodeOf([&] { service_->authentication().Login("bob@example.com", kPassword, ""); }),
            "auth.login.user_inactive");
  admin.SetUserActive(me, "bob@example.com", true);
  EXPECT_EQ(CodeOf([&] { service_->authentication().Login("bob@example.com", kPassword, ""); }),
            "<none>");
  EXPECT_EQ(CodeOf([&] { admin.SetUserActive(me, "ROOT@example.com", false); }),
            "user.validation.self_deactivation");
  EXPECT_EQ(CodeOf([&] { service_->authentication().Login("root@example.com", kPassword, ""); }),
            "<none>");
  EXPECT_EQ(CodeOf([&] { admin.SetUserActive(me, "nobody@example.com", false); }),
            "user.not_found");
}

TEST_F(WorkspaceAdmin, AnInstanceAdminCreatesAWorkspaceTheyAdminister) {
  WorkspaceAdminService admin(service_->accounts());
  MakeMember("root@example.com", MemberFlags{}, "default", true);
  Principal me = service_->authentication().AuthenticateSession(
      service_->authentication().Login("root@example.com", kPassword, "").token);
  Json created = admin.CreateWorkspace(me, "team-etl", "Team ETL");
  EXPECT_EQ(created["name"], "team-etl");
  EXPECT_EQ(created["display_name"], "Team ETL");
  auto members = service_->accounts().ListMembers("team-etl");
  ASSERT_EQ(members.size(), 1u);
  EXPECT_EQ(members[0].email, "root@example.com");
  EXPECT_EQ(members[0].flags, (MemberFlags{true, true, true}));
  EXPECT_EQ(CodeOf([&] { admin.CreateWorkspace(me, "team-etl", ""); }),
            "workspace.validation.duplicate_name");
  EXPECT_EQ(CodeOf([&] { admin.CreateWorkspace(me, "Team ETL", ""); }),
            "workspace.validation.name_invalid");
}

TEST_F(WorkspaceAdmin, AKeyNeverChangesAPassword) {
  AccountService account(service_->accounts());
  MakeMember("alice@example.com", MemberFlags{true, true, true});
  Principal key = service_->authentication().AuthenticateApiKey(
      KeyFor("alice@example.com", Scope::kAuthor).plaintext, "");
  EXPECT_EQ(CodeOf([&] { account.ChangePassword(key, kPassword, "a long enough password", ""); }),
            "auth.session.required");
  EXPECT_EQ(CodeOf([&] { service_->authentication().Login("alice@example.com", kPassword, ""); }),
            "<none>");
}

}  // namespace
}  // namespace dp::test
