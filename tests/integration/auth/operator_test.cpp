// Operator verbs (the CLI) and bootstrap idempotency.
#include "integration/auth/auth_test_fixture.hpp"

namespace dp::test {
namespace {

using Operator = AuthServiceTest;

BootstrapRequest Admin(std::string email, std::string password = "",
                       std::string workspace = "default") {
  BootstrapRequest request;
  request.admin_email = std::move(email);
  request.admin_password = std::move(password);
  request.workspace_name = std::move(workspace);
  return request;
}

TEST_F(Operator, UserValidation) {
  EXPECT_EQ(CodeOf([&] { service_->accounts().CreateUser("not-an-email", "", kPassword, false); }),
            "user.validation.email_invalid");
  EXPECT_EQ(
      CodeOf([&] { service_->accounts().CreateUser("a@example.com", "", "short-pw-11", false); }),
      "user.validation.password_too_short");
  User user = service_->accounts().CreateUser(" Carol@Example.com ", "Carol", kPassword, false);
  EXPECT_EQ(user.email, "carol@example.com");
  EXPECT_TRUE(user.password_hash.empty());
  EXPECT_TRUE(store_->Users().FindUserById(user.id)->password_hash.starts_with("$argon2id$"));
  EXPECT_EQ(
      CodeOf([&] { service_->accounts().CreateUser("CAROL@example.com", "", kPassword, false); }),
      "user.validation.duplicate_email");
  for (const User& listed : service_->accounts().ListUsers())
    EXPECT_TRUE(listed.password_hash.empty());
  EXPECT_EQ(store_->Audit().ListAudit("auth.user.created", 5).size(), 1u);
}

TEST_F(Operator, WorkspaceValidation) {
  EXPECT_EQ(CodeOf([&] { service_->accounts().CreateWorkspace("Bad Name", "", ""); }),
            "workspace.validation.name_invalid");
  EXPECT_EQ(CodeOf([&] { service_->accounts().CreateWorkspace(std::string(64, 'a'), "", ""); }),
            "workspace.validation.name_invalid");
  Workspace ws = service_->accounts().CreateWorkspace("team-a", "Team A", "");
  EXPECT_EQ(ws.display_name, "Team A");
  EXPECT_EQ(CodeOf([&] { service_->accounts().CreateWorkspace("team-a", "", ""); }),
            "workspace.validation.duplicate_name");
  EXPECT_EQ(
      CodeOf([&] { service_->accounts().CreateWorkspace("team-b", "", "ghost@example.com"); }),
      "user.not_found");
  EXPECT_EQ(service_->accounts().ListWorkspaces().size(), 1u);
}

TEST_F(Operator, Memberships) {
  service_->accounts().CreateUser("dave@example.com", "Dave", kPassword, false);
  service_->accounts().CreateWorkspace("team", "", "");
  EXPECT_EQ(CodeOf([&] {
              service_->accounts().SetMembership("team", "ghost@example.com", MemberFlags{});
            }),
            "user.not_found");
  EXPECT_EQ(CodeOf([&] {
              service_->accounts().SetMembership("nope", "dave@example.com", MemberFlags{});
            }),
            "workspace.not_found");
  service_->accounts().SetMembership("team", "dave@example.com", MemberFlags{});
  service_->accounts().SetMembership("team", "DAVE@example.com", MemberFlags{true, true, false});
  auto members = service_->accounts().ListMembers("team");
  ASSERT_EQ(members.size(), 1u);
  EXPECT_EQ(members[0].email, "dave@example.com");
  EXPECT_EQ(members[0].display_name, "Dave");
  EXPECT_EQ(members[0].flags, (MemberFlags{true, true, false}));
  EXPECT_TRUE(service_->accounts().RemoveMembership("team", "dave@example.com"));
  EXPECT_FALSE(service_->accounts().RemoveMembership("team", "dave@example.com"));
  EXPECT_TRUE(service_->accounts().ListMembers("team").empty());
}

TEST_F(Operator, KeysForAnInactiveUserAreRefused) {
  MakeMember("eve@example.com", MemberFlags{true, true, false});
  service_->accounts().SetUserActive("eve@example.com", false);
  EXPECT_EQ(CodeOf([&] { KeyFor("eve@example.com", Scope::kRead); }), "auth.login.user_inactive");
}

TEST_F(Operator, BootstrapCreatesOnlyWhatIsMissing) {
  BootstrapResult first = service_->accounts().Bootstrap(Admin("admin@example.com"));
  EXPECT_TRUE(first.created_user);
  EXPECT_TRUE(first.created_workspace);
  EXPECT_TRUE(first.created_membership);
  EXPECT_TRUE(first.created_key);
  ASSERT_TRUE(first.key.has_value());
  EXPECT_GE(first.generated_password.size(), 12u);

  // The generated password logs in; the key is an author key of a super_admin ws_admin.
  LoginResult login =
      service_->authentication().Login("admin@example.com", first.generated_password, "");
  EXPECT_TRUE(login.principal.super_admin);
  Principal p = service_->authentication().AuthenticateApiKey(first.key->plaintext, "");
  EXPECT_EQ(p.scope, Scope::kAuthor);
  EXPECT_EQ(p.membership, (MemberFlags{true, true, true}));
  EXPECT_EQ(p.workspace_name, "default");
  EXPECT_EQ(p.kind, KeyKind::kUser);

  BootstrapResult second = service_->accounts().Bootstrap(Admin("admin@example.com"));
  EXPECT_FALSE(second.created_user);
  EXPECT_FALSE(second.created_workspace);
  EXPECT_FALSE(second.created_membership);
  EXPECT_FALSE(second.created_key);
  EXPECT_FALSE(second.key.has_value());
  EXPECT_TRUE(second.generated_password.empty());
  EXPECT_EQ(second.user_id, first.user_id);
  EXPECT_EQ(second.workspace_id, first.workspace_id);
  EXPECT_EQ(service_->keys().ListAllKeys().size(), 1u);

  // Once the key is revoked, bootstrap issues a new one and nothing else.
  service_->keys().RevokeApiKeyById(first.key->record.id);
  BootstrapResult third = service_->accounts().Bootstrap(Admin("admin@example.com"));
  EXPECT_FALSE(third.created_user);
  EXPECT_TRUE(third.created_key);
  ASSERT_TRUE(third.key.has_value());
  EXPECT_NE(third.key->record.id, first.key->record.id);
  EXPECT_EQ(service_->accounts().ListUsers().size(), 1u);
  EXPECT_EQ(service_->accounts().ListWorkspaces().size(), 1u);
}

TEST_F(Operator, BootstrapWithAGivenPasswordReturnsNoPassword) {
  BootstrapResult result =
      service_->accounts().Bootstrap(Admin("admin@example.com", "a-chosen-password", "main"));
  EXPECT_TRUE(result.generated_password.empty());
  EXPECT_EQ(service_->authentication()
                .Login("admin@example.com", "a-chosen-password", "")
                .principal.workspace_name,
            "main");
  EXPECT_EQ(CodeOf([&] { service_->accounts().Bootstrap(Admin("not-an-email")); }),
            "user.validation.email_invalid");
}

// `workspaces create --owner-email` makes the owner a ws_admin member (its help says so).
TEST_F(Operator, WorkspaceCreatorBecomesWsAdmin) {
  User owner = service_->accounts().CreateUser("owner@example.com", "Owner", kPassword, false);
  Workspace ws = service_->accounts().CreateWorkspace("owned", "Owned", "owner@example.com");
  auto membership = store_->Workspaces().FindMembership(ws.id, owner.id);
  ASSERT_TRUE(membership);
  EXPECT_EQ(membership->flags, (MemberFlags{true, true, true}));
}

// users set-password: a given password signs in; an empty one is generated and returned once;
// a short one is refused and changes nothing. The self-service change is session-only.
TEST_F(Operator, SetPasswordAndChangeOwnPassword) {
  service_->accounts().CreateUser("pat@example.com", "Pat", kPassword, false);
  EXPECT_EQ(service_->accounts().SetPassword("pat@example.com", "another-long-password"), "");
  EXPECT_EQ(
      CodeOf([&] { service_->authentication().Login("pat@example.com", kPassword, "10.0.0.9"); }),
      "auth.login.bad_credentials");
  LoginResult login =
      service_->authentication().Login("pat@example.com", "another-long-password", "10.0.0.9");
  EXPECT_EQ(CodeOf([&] { service_->accounts().SetPassword("pat@example.com", "short"); }),
            "user.validation.password_too_short");
  std::string generated = service_->accounts().SetPassword("pat@example.com", "");
  EXPECT_GE(generated.size(), 12u);
  login = service_->authentication().Login("pat@example.com", generated, "10.0.0.9");
  Principal key = login.principal;
  key.via_session = false;
  key.key_id = "dpk_TESTTESTTEST";
  EXPECT_EQ(CodeOf([&] {
              service_->accounts().ChangeOwnPassword(key, generated, "a-third-long-password");
            }),
            "auth.session.required");
  EXPECT_EQ(CodeOf([&] {
              service_->accounts().ChangeOwnPassword(login.principal, "wrong",
                                                     "a-third-long-password");
            }),
            "auth.login.bad_credentials");
  service_->accounts().ChangeOwnPassword(login.principal, generated, "a-third-long-password");
  service_->authentication().Login("pat@example.com", "a-third-long-password", "10.0.0.9");
  EXPECT_EQ(store_->Audit().ListAudit("auth.password.reset", 5).size(), 2u);
}

}  // namespace
}  // namespace dp::test
