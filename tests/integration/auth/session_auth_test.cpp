// Local login and dp_session validation against a real SQLite metadata store.
#include "datapipelines/util/crypto.hpp"
#include "integration/auth/auth_test_fixture.hpp"

namespace dp::test {
namespace {

using SessionAuth = AuthServiceTest;

TEST_F(SessionAuth, LoginOpensASessionInTheFirstWorkspace) {
  User bob = MakeMember("bob@example.com", MemberFlags{});
  LoginResult login = service_->authentication().Login("BOB@example.com", kPassword, "10.0.0.9");
  EXPECT_EQ(login.token.size(), 43u);  // 32 random bytes, base64url without padding
  EXPECT_EQ(login.token.find_first_of("+/="), std::string::npos);
  EXPECT_EQ(login.expires_at_ms, kStartMs + 8 * 3600 * 1000);
  EXPECT_EQ(login.principal.user_id, bob.id);
  EXPECT_EQ(login.principal.workspace_name, "default");
  EXPECT_EQ(login.principal.membership, (MemberFlags{}));
  EXPECT_EQ(login.principal.scope, Scope::kExecute);
  EXPECT_TRUE(login.principal.via_session);
  EXPECT_TRUE(login.principal.key_id.empty());
  // Only the digest is stored.
  auto session = store_->Credentials().FindSession(Sha256Hex(login.token));
  ASSERT_TRUE(session.has_value());
  EXPECT_EQ(session->user_id, bob.id);

  Principal p = service_->authentication().AuthenticateSession(login.token);
  EXPECT_EQ(p.user_id, bob.id);
  EXPECT_EQ(p.workspace_id, login.principal.workspace_id);
  EXPECT_TRUE(p.via_session);

  auto success = store_->Audit().ListAudit("auth.login.success", 5);
  ASSERT_EQ(success.size(), 1u);
  EXPECT_EQ(success[0].source_ip, "10.0.0.9");
  EXPECT_EQ(success[0].details.dump().find(kPassword), std::string::npos);
}

TEST_F(SessionAuth, WrongPasswordAndUnknownEmailLookAlike) {
  MakeMember("bob@example.com", MemberFlags{});
  std::string wrong_message, unknown_message;
  try {
    service_->authentication().Login("bob@example.com", "not the password", "");
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kLoginInvalid);
    wrong_message = e.what();
  }
  const uint64_t verifies = service_->hasher().verify_count();
  try {
    service_->authentication().Login("nobody@example.com", "not the password", "");
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kLoginInvalid);
    unknown_message = e.what();
  }
  EXPECT_FALSE(wrong_message.empty());
  EXPECT_EQ(wrong_message, unknown_message);
  // The unknown account still paid for one Argon2 verification.
  EXPECT_EQ(service_->hasher().verify_count(), verifies + 1);
  auto failures = store_->Audit().ListAudit("auth.login.bad_credentials", 5);
  ASSERT_EQ(failures.size(), 2u);
  for (const auto& e : failures) {
    EXPECT_EQ(e.details.dump().find("not the password"), std::string::npos);
  }
}

TEST_F(SessionAuth, InactiveUserCannotLogIn) {
  MakeMember("bob@example.com", MemberFlags{});
  service_->accounts().SetUserActive("bob@example.com", false);
  EXPECT_EQ(CodeOf([&] { service_->authentication().Login("bob@example.com", kPassword, ""); }),
            "auth.login.user_inactive");
  EXPECT_EQ(store_->Audit().ListAudit("auth.login.user_inactive", 5).size(), 1u);
}

TEST_F(SessionAuth, SessionExpires) {
  MakeMember("bob@example.com", MemberFlags{});
  LoginResult login = service_->authentication().Login("bob@example.com", kPassword, "");
  Advance(8LL * 3600 * 1000 - 1);
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateSession(login.token); }), "<none>");
  Advance(1);
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateSession(login.token); }),
            "auth.session.expired");
}

TEST_F(SessionAuth, LogoutAndDeactivationEndTheSessionAtOnce) {
  MakeMember("bob@example.com", MemberFlags{});
  LoginResult first = service_->authentication().Login("bob@example.com", kPassword, "");
  LoginResult second = service_->authentication().Login("bob@example.com", kPassword, "");
  service_->authentication().AuthenticateSession(first.token);
  service_->authentication().Logout(first.token);
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateSession(first.token); }),
            "auth.session.invalid");
  EXPECT_FALSE(store_->Credentials().FindSession(Sha256Hex(first.token)).has_value());
  service_->authentication().AuthenticateSession(second.token);
  service_->accounts().SetUserActive("bob@example.com", false);
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateSession(second.token); }),
            "auth.session.invalid");
}

// issue 17: a password change ends the user's OTHER sessions, keeps the one it came from, and
// revokes nothing else (keys, another user's sessions); one audit event counts the ended ones.
TEST_F(SessionAuth, PasswordChangeEndsTheOtherSessionsOnly) {
  MakeMember("bob@example.com", MemberFlags{true, true, false});
  MakeMember("carol@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("bob@example.com", Scope::kAuthor);
  LoginResult current = service_->authentication().Login("bob@example.com", kPassword, "");
  LoginResult laptop = service_->authentication().Login("bob@example.com", kPassword, "");
  LoginResult phone = service_->authentication().Login("bob@example.com", kPassword, "");
  LoginResult carol = service_->authentication().Login("carol@example.com", kPassword, "");
  for (const auto* login : {&current, &laptop, &phone, &carol}) {
    service_->authentication().AuthenticateSession(
        login->token);  // cached: the change must reach the cache
  }
  Principal me = service_->authentication().AuthenticateSession(current.token);
  EXPECT_EQ(me.session_token_hash, Sha256Hex(current.token));
  service_->accounts().ChangeOwnPassword(me, kPassword, "a brand new passphrase");

  EXPECT_EQ(service_->authentication().AuthenticateSession(current.token).user_id, me.user_id);
  for (const auto* ended : {&laptop, &phone}) {
    EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateSession(ended->token); }),
              "auth.session.invalid");
    EXPECT_FALSE(store_->Credentials().FindSession(Sha256Hex(ended->token)).has_value());
  }
  EXPECT_EQ(service_->authentication().AuthenticateSession(carol.token).email, "carol@example.com");
  EXPECT_EQ(service_->authentication().AuthenticateApiKey(key.plaintext, "").user_id, me.user_id);
  auto audit = store_->Audit().ListAudit("auth.password.changed", 5);
  ASSERT_EQ(audit.size(), 1u);
  EXPECT_EQ(audit[0].details["other_sessions_ended"], 2);
  EXPECT_EQ(audit[0].details.dump().find("passphrase"), std::string::npos);
  // The new password signs in; the old one no longer does.
  EXPECT_NO_THROW(
      service_->authentication().Login("bob@example.com", "a brand new passphrase", ""));
  EXPECT_EQ(CodeOf([&] { service_->authentication().Login("bob@example.com", kPassword, ""); }),
            "auth.login.bad_credentials");
}

TEST_F(SessionAuth, SessionCacheRereadsMembershipAtTtl) {
  User bob = MakeMember("bob@example.com", MemberFlags{});
  LoginResult login = service_->authentication().Login("bob@example.com", kPassword, "");
  store_->Workspaces().UpsertMembership(
      Membership{login.principal.workspace_id, bob.id, MemberFlags{true, true, false}, 0});
  EXPECT_EQ(service_->authentication().AuthenticateSession(login.token).membership, (MemberFlags{}));
  Advance(kTtlMs);
  Principal p = service_->authentication().AuthenticateSession(login.token);
  EXPECT_EQ(p.membership, (MemberFlags{true, true, false}));
  EXPECT_EQ(p.scope, Scope::kAuthor);
}

TEST_F(SessionAuth, UnknownOrEmptyCookieIsInvalid) {
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateSession(""); }),
            "auth.session.invalid");
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateSession("made-up"); }),
            "auth.session.invalid");
}

TEST_F(SessionAuth, SuperAdminWithoutWorkspaceGetsAnEmptyContext) {
  service_->accounts().CreateUser("root@example.com", "Root", kPassword, true);
  LoginResult login = service_->authentication().Login("root@example.com", kPassword, "");
  EXPECT_TRUE(login.principal.super_admin);
  EXPECT_TRUE(login.principal.workspace_id.empty());
  EXPECT_EQ(login.principal.scope, Scope::kAuthor);
}

}  // namespace
}  // namespace dp::test
