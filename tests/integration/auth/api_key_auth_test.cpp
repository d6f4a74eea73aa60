// API-key validation (auth.md §7.3, §11.4) against a real SQLite metadata store.
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/identity/api_key_format.hpp"
#include "integration/auth/auth_test_fixture.hpp"

#include <set>
#include <thread>

namespace dp::test {
namespace {

using ApiKeyAuth = AuthServiceTest;

TEST_F(ApiKeyAuth, IssuedKeyAuthenticatesAsItsIssuerInItsWorkspace) {
  User alice = MakeMember("Alice@Example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kExecute);
  ASSERT_TRUE(ParseApiKey(key.plaintext).has_value());
  EXPECT_EQ(ParseApiKey(key.plaintext)->id, key.record.id);
  EXPECT_TRUE(key.record.key_hash.empty());
  EXPECT_EQ(key.workspace_name, "default");

  Principal p = service_->authentication().AuthenticateApiKey(key.plaintext, "10.0.0.1");
  EXPECT_EQ(p.user_id, alice.id);
  EXPECT_EQ(p.email, "alice@example.com");
  EXPECT_EQ(p.key_id, key.record.id);
  EXPECT_EQ(p.workspace_id, key.record.workspace_id);
  EXPECT_EQ(p.workspace_name, "default");
  EXPECT_EQ(p.scope, Scope::kExecute);
  EXPECT_EQ(p.membership, (MemberFlags{true, true, false}));
  EXPECT_EQ(p.kind, KeyKind::kUser);
  EXPECT_FALSE(p.super_admin);
  EXPECT_FALSE(p.via_session);
}

TEST_F(ApiKeyAuth, StoresOnlyAnArgon2HashAndRecordsLastUse) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kRead);
  auto stored = store_->Credentials().FindApiKey(key.record.id);
  ASSERT_TRUE(stored.has_value());
  EXPECT_TRUE(stored->key_hash.starts_with("$argon2id$"));
  EXPECT_EQ(stored->key_hash.find(key.plaintext.substr(17)), std::string::npos);
  EXPECT_FALSE(stored->last_used_at_ms.has_value());
  service_->authentication().AuthenticateApiKey(key.plaintext, "");
  EXPECT_EQ(store_->Credentials().FindApiKey(key.record.id)->last_used_at_ms, kStartMs);
}

TEST_F(ApiKeyAuth, ACachedKeyNeverReachesArgon2) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kRead);
  const uint64_t before = service_->hasher().verify_count();
  for (int i = 0; i < 5; ++i) service_->authentication().AuthenticateApiKey(key.plaintext, "");
  EXPECT_EQ(service_->hasher().verify_count(), before + 1);
  // A refresh after the TTL re-reads the row, role and liveness, but the hash is unchanged.
  Advance(kTtlMs);
  service_->authentication().AuthenticateApiKey(key.plaintext, "");
  EXPECT_EQ(service_->hasher().verify_count(), before + 1);
}

TEST_F(ApiKeyAuth, RevocationThroughTheServiceIsImmediate) {
  User alice = MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kRead);
  Principal p = service_->authentication().AuthenticateApiKey(key.plaintext, "");
  service_->keys().RevokeApiKey(p, key.record.id);
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(key.plaintext, ""); }),
            "auth.api_key.invalid");
  EXPECT_TRUE(store_->Credentials().FindApiKey(key.record.id)->is_revoked);
  auto revoked = store_->Audit().ListAudit("auth.api_key.revoked", 10);
  ASSERT_EQ(revoked.size(), 1u);
  EXPECT_EQ(revoked[0].key_id, key.record.id);
  EXPECT_EQ(revoked[0].user_id, alice.id);
}

TEST_F(ApiKeyAuth, RevocationDirectlyInTheStoreTakesEffectAtTtl) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kRead);
  service_->authentication().AuthenticateApiKey(key.plaintext, "");
  ASSERT_TRUE(store_->Credentials().RevokeApiKey(key.record.id));  // another instance revoked it
  Advance(kTtlMs - 1);
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(key.plaintext, ""); }),
            "<none>");
  Advance(1);
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(key.plaintext, ""); }),
            "auth.api_key.invalid");
}

TEST_F(ApiKeyAuth, DemotedIssuerLosesTheKeyAfterTtl) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kAuthor);
  Principal p = service_->authentication().AuthenticateApiKey(key.plaintext, "");
  EnforceAccess(p, Operation::kTemplatesCreate);
  // Demoted by another instance: the role is re-read with the cache entry.
  store_->Workspaces().UpsertMembership(
      Membership{key.record.workspace_id, p.user_id, MemberFlags{}, 0});
  Advance(kTtlMs - 1);
  p = service_->authentication().AuthenticateApiKey(key.plaintext, "");
  EXPECT_EQ(p.membership, (MemberFlags{true, true, false}));
  Advance(1);
  p = service_->authentication().AuthenticateApiKey(key.plaintext, "");
  EXPECT_EQ(p.membership, (MemberFlags{}));
  EXPECT_EQ(CodeOf([&] { EnforceAccess(p, Operation::kTemplatesCreate); }),
            "auth.key_issuer_role_lost");
  // What the issuer can still do, the key can still do.
  EXPECT_EQ(CodeOf([&] { EnforceAccess(p, Operation::kTemplatesList); }), "<none>");
}

TEST_F(ApiKeyAuth, IssuerRemovedFromTheWorkspaceLosesEveryTool) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kRead);
  ASSERT_TRUE(service_->accounts().RemoveMembership("default", "alice@example.com"));
  // Through this instance the change is immediate.
  Principal p = service_->authentication().AuthenticateApiKey(key.plaintext, "");
  EXPECT_FALSE(p.membership.has_value());
  EXPECT_EQ(CodeOf([&] { EnforceAccess(p, Operation::kTemplatesList); }),
            "auth.key_issuer_role_lost");
}

TEST_F(ApiKeyAuth, DemotionThroughTheServiceIsImmediate) {
  MakeMember("alice@example.com", MemberFlags{true, true, true});
  MakeMember("owner@example.com", MemberFlags{true, false, true});  // the workspace keeps an admin
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kAuthor);
  service_->authentication().AuthenticateApiKey(key.plaintext, "");
  service_->accounts().SetMembership("default", "alice@example.com", MemberFlags{});
  EXPECT_EQ(service_->authentication().AuthenticateApiKey(key.plaintext, "").membership, (MemberFlags{}));
}

TEST_F(ApiKeyAuth, DeactivatedOwnerInvalidatesTheKey) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kRead);
  service_->authentication().AuthenticateApiKey(key.plaintext, "");
  service_->accounts().SetUserActive("alice@example.com", false);
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(key.plaintext, ""); }),
            "auth.api_key.invalid");
  service_->accounts().SetUserActive("alice@example.com", true);
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(key.plaintext, ""); }),
            "<none>");
}

TEST_F(ApiKeyAuth, OwnerDeactivatedElsewhereIsNoticedAtTtl) {
  User alice = MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kRead);
  service_->authentication().AuthenticateApiKey(key.plaintext, "");
  store_->Users().SetUserActive(alice.id, false);
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(key.plaintext, ""); }),
            "<none>");
  Advance(kTtlMs);
  const uint64_t verifies = service_->hasher().verify_count();
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(key.plaintext, ""); }),
            "auth.api_key.invalid");
  // The inactive owner is cached too: repeated attempts do not cost Argon2 runs.
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(key.plaintext, ""); }),
            "auth.api_key.invalid");
  EXPECT_EQ(service_->hasher().verify_count(), verifies);
}

TEST_F(ApiKeyAuth, ExpiredKeyIsRefusedEvenFromTheCache) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kRead, KeyKind::kUser, kStartMs + 1000);
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(key.plaintext, ""); }),
            "<none>");
  Advance(1000);
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(key.plaintext, ""); }),
            "auth.api_key.expired");
  Advance(kTtlMs);  // and from the store
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(key.plaintext, ""); }),
            "auth.api_key.expired");
}

TEST_F(ApiKeyAuth, BadTokensAreInvalidAndAuditedWithoutTheSecret) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kRead);
  std::string wrong_secret = key.plaintext.substr(0, 17) + std::string(48, 'A');
  std::string unknown = GenerateApiKey().plaintext;
  // One address each: repeats from one address are aggregated (RepeatedRefusalsAreAggregated).
  int n = 0;
  for (const std::string& token : {std::string("garbage"), std::string(), wrong_secret, unknown}) {
    std::string ip = "10.1.2." + std::to_string(++n);
    EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(token, ip); }),
              "auth.api_key.invalid")
        << token;
  }
  auto rejected = store_->Audit().ListAudit("auth.api_key.rejected", 10);
  ASSERT_EQ(rejected.size(), 4u);
  std::set<std::string> reasons;
  for (const AuditEvent& e : rejected) {
    reasons.insert(e.details.value("reason", ""));
    EXPECT_EQ(e.source_ip.rfind("10.1.2.", 0), 0u);
    std::string row = e.details.dump() + e.key_id;
    EXPECT_EQ(row.find(std::string(48, 'A')), std::string::npos);
    EXPECT_EQ(row.find(unknown.substr(17)), std::string::npos);
  }
  EXPECT_EQ(reasons, (std::set<std::string>{"malformed", "hash_mismatch", "unknown"}));
}

TEST_F(ApiKeyAuth, KindIsReportedNotJudged) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey endpoint = KeyFor("alice@example.com", Scope::kRead, KeyKind::kEndpoint);
  IssuedApiKey server = KeyFor("alice@example.com", Scope::kRead, KeyKind::kServer);
  EXPECT_EQ(service_->authentication().AuthenticateApiKey(endpoint.plaintext, "").kind,
            KeyKind::kEndpoint);
  EXPECT_EQ(service_->authentication().AuthenticateApiKey(server.plaintext, "").kind,
            KeyKind::kServer);
}

TEST_F(ApiKeyAuth, ConcurrentAuthenticationIsSafe) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kRead);
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        if (service_->authentication().AuthenticateApiKey(key.plaintext, "").key_id ==
            key.record.id)
          ++ok;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(ok.load(), 200);
}

}  // namespace
}  // namespace dp::test
