// Workspaces and people over REST (rest-api §16.3, §17) through the real RestApi: a workspace
// named in the path is selected as DP-Workspace would select it, members carry three flags, an
// unknown e-mail is invited and becomes a member when the account exists, the last admin
// stays, deactivation hides a workspace and stops its keys, and a super admin administers
// people — each verb with its audit event.
#include "datapipelines/rest/workspace_routes.hpp"
#include "datapipelines/service/identity/workspace_service.hpp"
#include "support/surface_stack.hpp"

namespace dp::test {
namespace {

class WorkspaceRest : public SurfaceStack {
 protected:
  void SetUp() override {
    OpenSurfaces();
    workspaces_ = std::make_unique<WorkspaceService>(auth_->records(), auth_->accounts(),
                                                     auth_->authentication(),
                                                     std::vector<std::string>{"example.com"});
    rest_->Mount("/api/v1/workspaces", WorkspaceRoutes(*workspaces_));
    rest_->Mount("/api/v1/auth/users", UserRoutes(*workspaces_));
    AddUser("alice", "team", MemberFlags{true, false, true}, Scope::kAuthor);
    AddUser("bob", "team", MemberFlags{}, Scope::kExecute);
    auth_->accounts().CreateUser("root@example.com", "Root", "correct horse battery", true);
    root_token_ =
        auth_->authentication().Login("root@example.com", "correct horse battery", "").token;
  }

  // A request as the signed-in super admin (cookie and CSRF token, as a browser sends them).
  RestOutcome AsRoot(const std::string& method, const std::string& target,
                     const Json& body = nullptr) {
    HttpRequest request;
    request.method = method;
    request.target = target;
    request.path = target.substr(0, target.find('?'));
    if (target.find('?') != std::string::npos) request.query = target.substr(target.find('?') + 1);
    if (!body.is_null()) request.body = body.dump();
    request.headers.Add("Cookie", "dp_session=" + root_token_);
    request.headers.Add("DP-CSRF-Token", Authenticator::CsrfTokenFor(root_token_));
    request.remote_ip = "127.0.0.1";
    request.correlation_id = "root";
    HttpResponse response = rest_->HandleApi(request);
    return {response.status, response.body.empty() ? Json() : Json::parse(response.body)};
  }

  std::size_t Audited(const std::string& event) {
    audit_->Flush();
    return store_->Audit().ListAudit(event, 100).size();
  }

  std::string IdOf(const std::string& email) { return store_->Users().FindUserByEmail(email)->id; }

  std::unique_ptr<WorkspaceService> workspaces_;
  std::string root_token_;
};

TEST_F(WorkspaceRest, MembersInvitationsAndTheLastAdmin) {
  RestOutcome own = Rest("alice", "GET", "/api/v1/workspaces");
  ASSERT_EQ(own.status, 200) << own.body.dump();
  ASSERT_EQ(own.body["data"].size(), 1u);
  EXPECT_EQ(own.body["data"][0]["name"], "team");
  EXPECT_EQ(own.body["data"][0]["admin"], true);
  // A key names its own workspace only; another is not found, never forbidden.
  EXPECT_EQ(Rest("alice", "GET", "/api/v1/workspaces/elsewhere").Code(), "workspace.not_found");

  // An existing person becomes a member (200); an unknown e-mail is invited (202).
  auth_->accounts().CreateUser("dave@example.com", "Dave", "correct horse battery", false);
  RestOutcome added = Rest("alice", "POST", "/api/v1/workspaces/team/members",
                           {{"email", "Dave@Example.com"}, {"promoter", true}});
  EXPECT_EQ(added.status, 200) << added.body.dump();
  EXPECT_EQ(added.body["data"]["promoter"], true);
  RestOutcome invited = Rest("alice", "POST", "/api/v1/workspaces/team/members",
                             {{"email", "Carol@Example.com"}, {"admin", true}});
  EXPECT_EQ(invited.status, 202) << invited.body.dump();
  EXPECT_EQ(invited.body["data"]["invited"], true);
  EXPECT_EQ(invited.body["data"]["author"], true) << "an admin always authors";
  EXPECT_EQ(
      Rest("alice", "POST", "/api/v1/workspaces/team/members", {{"email", "eve@elsewhere.org"}})
          .Code(),
      "auth.login.domain_not_allowed");
  RestOutcome listed = Rest("alice", "GET", "/api/v1/workspaces/team/members");
  ASSERT_EQ(listed.status, 200);
  EXPECT_EQ(listed.body["data"]["members"].size(), 3u) << "alice, bob, dave: no ghost";
  ASSERT_EQ(listed.body["data"]["invitations"].size(), 1u);
  EXPECT_EQ(listed.body["data"]["invitations"][0]["email"], "carol@example.com");
  EXPECT_EQ(Audited("workspace.member_invited"), 1u);

  // Carol's account comes into existence: the invitation becomes her membership.
  Principal root = auth_->authentication().AuthenticateSession(root_token_);
  auth_->accounts().CreateLocalUser(root, "carol@example.com", "Carol", "");
  auto carol = store_->Workspaces().FindMembership(
      store_->Workspaces().FindWorkspaceByName("team")->id, IdOf("carol@example.com"));
  ASSERT_TRUE(carol);
  EXPECT_EQ(carol->flags, (MemberFlags{true, false, true}));
  EXPECT_TRUE(
      Rest("alice", "GET", "/api/v1/workspaces/team/members").body["data"]["invitations"].empty());
  EXPECT_EQ(Audited("workspace.invitation_materialised"), 1u);

  // Flags are replaced wholesale; a viewer cannot manage members (and that is audited).
  RestOutcome set =
      Rest("alice", "PUT", "/api/v1/workspaces/team/members/" + IdOf("bob@example.com"),
           {{"author", true}});
  EXPECT_EQ(set.status, 200) << set.body.dump();
  EXPECT_EQ(set.body["data"]["author"], true);
  EXPECT_EQ(set.body["data"]["promoter"], false);
  EXPECT_EQ(
      Rest("bob", "DELETE", "/api/v1/workspaces/team/members/" + IdOf("dave@example.com")).Code(),
      "auth.scope.insufficient");
  EXPECT_GE(Audited("auth.scope.denied"), 1u);

  // Two admins (alice, carol): one may go; the last may neither go nor lose the flag.
  EXPECT_EQ(Rest("alice", "DELETE", "/api/v1/workspaces/team/members/" + IdOf("carol@example.com"))
                .status,
            204);
  EXPECT_EQ(Rest("alice", "PUT", "/api/v1/workspaces/team/members/" + IdOf("alice@example.com"),
                 {{"author", true}})
                .Code(),
            "workspace.last_admin");
  EXPECT_EQ(Rest("alice", "DELETE", "/api/v1/workspaces/team/members/" + IdOf("alice@example.com"))
                .Code(),
            "workspace.last_admin");
  EXPECT_EQ(Rest("alice", "DELETE", "/api/v1/workspaces/team/members/no-such-id").Code(),
            "workspace.not_found");
  EXPECT_EQ(
      Rest("alice", "DELETE", "/api/v1/workspaces/team/invitations/nobody@example.com").Code(),
      "workspace.invitation.not_found");
}

TEST_F(WorkspaceRest, ASuperAdminCreatesDeactivatesAndReactivates) {
  RestOutcome created = AsRoot("POST", "/api/v1/workspaces", {{"name", "ops"}});
  ASSERT_EQ(created.status, 201) << created.body.dump();
  EXPECT_FALSE(store_->Workspaces().FindMembership(
      store_->Workspaces().FindWorkspaceByName("ops")->id, IdOf("root@example.com")))
      << "the creator takes no membership: a super admin is in every workspace already";
  EXPECT_EQ(Audited("auth.workspace.created"), 2u);  // team (the fixture) and ops
  EXPECT_EQ(Rest("alice", "POST", "/api/v1/workspaces", {{"name", "mine"}}).Code(),
            "auth.role_required");
  // Acting where they hold no membership is on the record, reads included.
  const std::size_t acting = Audited("auth.super_admin_acting");
  EXPECT_EQ(AsRoot("GET", "/api/v1/workspaces/team").status, 200);
  EXPECT_GT(Audited("auth.super_admin_acting"), acting);
  RestOutcome renamed = AsRoot("PUT", "/api/v1/workspaces/team", {{"display_name", "Team A"}});
  EXPECT_EQ(renamed.body["data"]["display_name"], "Team A");

  // Deactivated: hidden from members, its keys refused (not-found), nothing purged.
  EXPECT_EQ(AsRoot("POST", "/api/v1/workspaces/team/deactivate").status, 200);
  EXPECT_EQ(Rest("alice", "GET", "/api/v1/workspaces").Code(), "auth.key_workspace_inactive");
  EXPECT_EQ(Rest("alice", "GET", "/api/v1/workspaces").status, 404);
  Principal root = auth_->authentication().AuthenticateSession(root_token_);
  EXPECT_EQ(AsRoot("POST", "/api/v1/workspaces/team/members", {{"email", "x@example.com"}}).Code(),
            "workspace.inactive");
  EXPECT_EQ(AsRoot("POST", "/api/v1/workspaces/team/reactivate").status, 200);
  EXPECT_EQ(Rest("alice", "GET", "/api/v1/workspaces").status, 200);
  EXPECT_EQ(Audited("workspace.deactivated"), 1u);
  EXPECT_EQ(Audited("workspace.reactivated"), 1u);
}

TEST_F(WorkspaceRest, ASuperAdminAdministersPeople) {
  RestOutcome found = AsRoot("GET", "/api/v1/auth/users?q=BOB");
  ASSERT_EQ(found.status, 200) << found.body.dump();
  ASSERT_EQ(found.body["data"]["items"].size(), 1u);
  EXPECT_EQ(found.body["data"]["items"][0]["email"], "bob@example.com");
  EXPECT_EQ(found.body["data"]["items"][0].count("password_hash"), 0u);
  const std::string bob = IdOf("bob@example.com");
  EXPECT_EQ(AsRoot("GET", "/api/v1/auth/users/" + bob).body["data"]["email"], "bob@example.com");
  EXPECT_EQ(AsRoot("GET", "/api/v1/auth/users/nobody").Code(), "user.not_found");
  EXPECT_EQ(
      AsRoot("POST", "/api/v1/auth/users/" + bob + "/grant-admin").body["data"]["super_admin"],
      true);
  EXPECT_EQ(
      AsRoot("POST", "/api/v1/auth/users/" + bob + "/revoke-admin").body["data"]["super_admin"],
      false);
  EXPECT_EQ(Audited("auth.user.admin_granted"), 1u);
  EXPECT_EQ(Audited("auth.user.admin_revoked"), 1u);
  EXPECT_EQ(
      AsRoot("POST", "/api/v1/auth/users/" + IdOf("root@example.com") + "/revoke-admin").Code(),
      "user.validation.self_admin_revocation");
  // Deactivated: bob's key stops at once on this instance.
  EXPECT_EQ(Rest("bob", "GET", "/api/v1/workspaces").status, 200);
  EXPECT_EQ(AsRoot("POST", "/api/v1/auth/users/" + bob + "/deactivate").body["data"]["active"],
            false);
  EXPECT_EQ(Rest("bob", "GET", "/api/v1/workspaces").Code(), "auth.api_key.invalid");
  EXPECT_EQ(Audited("auth.user.deactivated"), 1u);
  // Only a super admin: a workspace admin's key is refused on the role axis.
  EXPECT_EQ(Rest("alice", "GET", "/api/v1/auth/users").Code(), "auth.role_required");
}

}  // namespace
}  // namespace dp::test
