// Local accounts' whole life (auth.md §5A) on a real store: a one-time password holds its
// session at the change until replaced (a route nobody has written yet included), the change
// runs under the sign-in lockout, an admin resets, unlocks and removes passwords, and the
// configured first admin is seeded once. No password ever reaches an audit row.
#include "datapipelines/limits/rate_limiter.hpp"
#include "datapipelines/service/identity/account_administration.hpp"
#include "datapipelines/service/identity/forced_password_change.hpp"
#include "datapipelines/service/identity/local_admin_seed.hpp"
#include "datapipelines/service/identity/request_authenticator.hpp"
#include "integration/auth/auth_test_fixture.hpp"

namespace dp::test {
namespace {

constexpr const char* kNewPassword = "a password of my own";

class LocalAccounts : public AuthServiceTest {
 protected:
  void SetUp() override {
    AuthServiceTest::SetUp();
    limiter_ = OpenRateLimiter("memory", RateLimitPolicy{100000, 1000000});
    requests_ = std::make_unique<RequestAuthenticator>(service_->authentication(), *limiter_,
                                                       store_->Workspaces());
    service_->accounts().CreateUser("root@example.com", "", kPassword, true);
    root_ = service_->authentication().Login("root@example.com", kPassword, "").principal;
  }

  // The code a session cookie gets for `path`, as every surface resolves it.
  std::string CodeFor(const std::string& token, std::string_view path) {
    HttpHeaders headers;
    headers.Add("Cookie", "dp_session=" + token);
    return CodeOf([&] {
      requests_->Authenticate(RequestCredentials::FromHeaders(headers), "127.0.0.1",
                              CredentialPolicy::kApiKeyOrSession, path);
    });
  }

  // Every audit row so far, as one string: what must never hold a password.
  std::string AllAudit() {
    audit_->Flush();
    std::string all;
    for (const AuditEvent& e : store_->Audit().ListAudit("", 1000)) all += e.details.dump();
    return all;
  }

  std::unique_ptr<RateLimiter> limiter_;
  std::unique_ptr<RequestAuthenticator> requests_;
  Principal root_;
};

TEST_F(LocalAccounts, AOneTimePasswordHoldsEveryRouteButTheChange) {
  CreatedLocalUser made = service_->accounts().CreateLocalUser(root_, "Bob@Example.com", "Bob", "");
  ASSERT_FALSE(made.credential.password.empty()) << "mail is off: the admin is shown it";
  EXPECT_TRUE(made.user.password_hash.empty()) << "no hash leaves the service";
  LoginResult bob =
      service_->authentication().Login("bob@example.com", made.credential.password, "10.0.0.1");
  EXPECT_TRUE(bob.principal.password_change_required);
  for (std::string_view held :
       {"/api/v1/pipelines", "/ui/", "/api/v1/auth/me", "/api/v1/a-route-written-next-year"}) {
    EXPECT_EQ(CodeFor(bob.token, held), "auth.password.change_required") << held;
  }
  for (std::string_view open :
       {"/api/v1/auth/password", "/ui/settings/password", "/ui/logout", "/api/v1/auth/logout"}) {
    EXPECT_EQ(CodeFor(bob.token, open), "<none>") << open;
  }
  // The change settles it: the same session reaches everything.
  service_->accounts().ChangeOwnPassword(bob.principal, made.credential.password, kNewPassword,
                                         "10.0.0.1");
  EXPECT_EQ(CodeFor(bob.token, "/api/v1/pipelines"), "<none>");
  EXPECT_FALSE(store_->Users().FindUserByEmail("bob@example.com")->must_change_password);
  audit_->Flush();
  auto changed = store_->Audit().ListAudit("auth.password.changed", 1);
  ASSERT_EQ(changed.size(), 1u);
  EXPECT_TRUE(changed.front().details.value("forced", false));
  EXPECT_EQ(AllAudit().find(made.credential.password), std::string::npos);
  EXPECT_EQ(AllAudit().find(kNewPassword), std::string::npos);
}

TEST_F(LocalAccounts, AnIdentityProviderSessionAndAKeyAreNotHeld) {
  CreatedLocalUser made = service_->accounts().CreateLocalUser(root_, "carol@example.com", "", "");
  User carol = *store_->Users().FindUserByEmail("carol@example.com");
  // Signing in through a provider proved no password, so none is asked for.
  LoginResult via_idp = service_->authentication().OpenSession(carol, "", "corp");
  EXPECT_FALSE(via_idp.principal.password_change_required);
  EXPECT_EQ(CodeFor(via_idp.token, "/api/v1/pipelines"), "<none>");
  Principal key_principal;
  key_principal.user_id = carol.id;
  key_principal.password_change_required = true;  // never set for a key; and never judged
  EXPECT_EQ(CodeOf([&] { RequireSettledPassword(key_principal, "/api/v1/pipelines"); }), "<none>");
}

TEST_F(LocalAccounts, TheChangeRunsUnderTheSignInLockout) {
  MakeMember("dana@example.com", MemberFlags{true, false, false});
  Principal dana = service_->authentication().Login("dana@example.com", kPassword, "").principal;
  AccountAdministration& accounts = service_->accounts();
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(CodeOf([&] { accounts.ChangeOwnPassword(dana, "a wrong guess!!", kNewPassword); }),
              "auth.login.bad_credentials");
  }
  // The fifth failure locks; then even the right password is refused, with no Argon2 work.
  EXPECT_EQ(CodeOf([&] { accounts.ChangeOwnPassword(dana, "a wrong guess!!", kNewPassword); }),
            "auth.login.bad_credentials");
  EXPECT_EQ(CodeOf([&] { accounts.ChangeOwnPassword(dana, kPassword, kNewPassword); }),
            "auth.login.locked");
  EXPECT_EQ(CodeOf([&] { service_->authentication().Login("dana@example.com", kPassword, ""); }),
            "auth.login.locked");
  EXPECT_GT(accounts.LockedForMs("dana@example.com"), 0);
  audit_->Flush();
  EXPECT_EQ(store_->Audit().ListAudit("auth.password.change_failed", 10).size(), 5u);
  EXPECT_EQ(store_->Audit().ListAudit("auth.password.change_locked", 10).size(), 1u);
  EXPECT_EQ(store_->Audit().ListAudit("auth.login.locked", 10).size(), 1u);
  // An admin unlocks without touching the password.
  accounts.Unlock(root_, "dana@example.com");
  EXPECT_EQ(accounts.LockedForMs("dana@example.com"), 0);
  EXPECT_EQ(CodeOf([&] { service_->authentication().Login("dana@example.com", kPassword, ""); }),
            "<none>");
  // The policy: 12 to 128 characters.
  EXPECT_EQ(CodeOf([&] { accounts.ChangeOwnPassword(dana, kPassword, "short"); }),
            "user.validation.password_too_short");
  EXPECT_EQ(CodeOf([&] { accounts.ChangeOwnPassword(dana, kPassword, std::string(129, 'x')); }),
            "user.validation.password_too_long");
}

TEST_F(LocalAccounts, AnAdminResetsAndRemovesPasswords) {
  MakeMember("erin@example.com", MemberFlags{});
  LoginResult before = service_->authentication().Login("erin@example.com", kPassword, "");
  AccountAdministration& accounts = service_->accounts();
  OneTimeCredential reset = accounts.ResetPassword(root_, "erin@example.com");
  ASSERT_GE(reset.password.size(), 24u);
  // Whoever held the old password is signed out; the new one is one-time.
  EXPECT_EQ(CodeFor(before.token, "/api/v1/pipelines"), "auth.session.invalid");
  EXPECT_EQ(CodeOf([&] { service_->authentication().Login("erin@example.com", kPassword, ""); }),
            "auth.login.bad_credentials");
  LoginResult after = service_->authentication().Login("erin@example.com", reset.password, "");
  EXPECT_TRUE(after.principal.password_change_required);
  audit_->Flush();
  auto resets = store_->Audit().ListAudit("auth.password.reset", 1);
  ASSERT_EQ(resets.size(), 1u);
  EXPECT_EQ(resets.front().details.value("by_user_id", ""), root_.user_id);
  EXPECT_EQ(AllAudit().find(reset.password), std::string::npos);

  accounts.DisableLocalPassword(root_, "erin@example.com");
  EXPECT_FALSE(accounts.HasLocalPassword(after.principal.user_id));
  EXPECT_EQ(CodeFor(after.token, "/api/v1/auth/password"), "auth.session.invalid");
  EXPECT_EQ(
      CodeOf([&] { service_->authentication().Login("erin@example.com", reset.password, ""); }),
      "auth.login.bad_credentials");
  EXPECT_EQ(CodeOf([&] { accounts.DisableLocalPassword(root_, "erin@example.com"); }),
            "user.validation.no_local_password");
}

TEST_F(LocalAccounts, OnlyASignedInSuperAdminHandsOutPasswords) {
  MakeMember("wsadmin@example.com", MemberFlags{true, true, true});
  Principal ws_admin =
      service_->authentication().Login("wsadmin@example.com", kPassword, "").principal;
  AccountAdministration& accounts = service_->accounts();
  EXPECT_EQ(CodeOf([&] { accounts.CreateLocalUser(ws_admin, "x@example.com", "", ""); }),
            "auth.role_required");
  EXPECT_EQ(CodeOf([&] { accounts.ResetPassword(ws_admin, "root@example.com"); }),
            "auth.role_required");
  Principal root_key = root_;
  root_key.via_session = false;
  root_key.key_id = "dpk_AAAAAAAAAAAA";
  for (auto verb : std::vector<std::function<void()>>{
           [&] { accounts.CreateLocalUser(root_key, "x@example.com", "", ""); },
           [&] { accounts.ResetPassword(root_key, "wsadmin@example.com"); },
           [&] { accounts.DisableLocalPassword(root_key, "wsadmin@example.com"); },
           [&] { accounts.Unlock(root_key, "wsadmin@example.com"); }}) {
    EXPECT_EQ(CodeOf(verb), "auth.session.required");
  }
}

TEST_F(LocalAccounts, TheConfiguredFirstAdminIsSeededOnce) {
  const AuthRecords& records = service_->records();
  LocalAdminSeed seed{"First@Example.com", "the seeded one-time", ""};
  EXPECT_EQ(SeedLocalAdmin(records, seed).outcome, LocalAdminSeedOutcome::kSeeded);
  User first = *store_->Users().FindUserByEmail("first@example.com");
  EXPECT_TRUE(first.is_super_admin);
  EXPECT_TRUE(first.must_change_password);
  EXPECT_EQ(first.provider, "bootstrap");
  // A restart finds it still one-time, and changes nothing.
  EXPECT_EQ(SeedLocalAdmin(records, seed).outcome, LocalAdminSeedOutcome::kPending);
  LoginResult login =
      service_->authentication().Login("first@example.com", "the seeded one-time", "");
  EXPECT_TRUE(login.principal.password_change_required);
  service_->accounts().ChangeOwnPassword(login.principal, "the seeded one-time", kNewPassword);
  EXPECT_EQ(SeedLocalAdmin(records, seed).outcome, LocalAdminSeedOutcome::kSettled);
  EXPECT_EQ(
      CodeOf([&] { service_->authentication().Login("first@example.com", kNewPassword, ""); }),
      "<none>")
      << "a restart never resets a changed password";
  // Another address later creates no second admin: it is reported.
  LocalAdminSeedResult other =
      SeedLocalAdmin(records, LocalAdminSeed{"second@example.com", "another one-time", ""});
  EXPECT_EQ(other.outcome, LocalAdminSeedOutcome::kEmailMismatch);
  EXPECT_EQ(other.seeded_email, "first@example.com");
  EXPECT_FALSE(store_->Users().FindUserByEmail("second@example.com"));
  EXPECT_EQ(AllAudit().find("the seeded one-time"), std::string::npos);
}

}  // namespace
}  // namespace dp::test
