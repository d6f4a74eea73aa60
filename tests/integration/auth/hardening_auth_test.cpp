// Issue 9, auth: the login dampers (per address, per account), the API-key pre-check (no
// Argon2 and equal work for unknown / revoked / wrong secret), the Argon2 bound for keys
// issued before the pre-check, and aggregated audit rows for repeatable refusals.
#include <chrono>

#include "auth_test_fixture.hpp"
#include "datapipelines/service/identity/api_key_format.hpp"

namespace dp::test {
namespace {

class AuthHardening : public AuthServiceTest {
 protected:
  void SetUp() override {}
  void Open(AuthOptions options) {
    options.cache_ttl = std::chrono::milliseconds(kTtlMs);
    options.clock = [this] { return now_.load(); };
    OpenCoreStack(store_, audit_, service_, options);
  }
};

TEST_F(AuthHardening, LoginIsRateLimitedPerAddress) {
  AuthOptions options = CheapAuthOptions();
  options.login_throttle.per_address_per_minute = 3;
  Open(options);
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(
        CodeOf([&] { service_->authentication().Login("alice@example.com", "wrong", "10.0.0.1"); }),
        "auth.login.bad_credentials");
  }
  for (int i = 0; i < 5; ++i) {
    try {
      service_->authentication().Login("alice@example.com", kPassword, "10.0.0.1");
      ADD_FAILURE() << "the fourth attempt in a minute must be refused";
    } catch (const DomainError& e) {
      EXPECT_EQ(std::string(e.code().code), "rate_limit.exceeded");
      EXPECT_EQ(e.http_status(), 429);
      EXPECT_GE(e.details()["retry_after_seconds"].get<int>(), 1);
    }
  }
  // Another address is not affected; the window ends after a minute.
  EXPECT_EQ(
      CodeOf([&] { service_->authentication().Login("alice@example.com", kPassword, "10.0.0.2"); }),
      "<none>");
  Advance(60'000);
  EXPECT_EQ(
      CodeOf([&] { service_->authentication().Login("alice@example.com", kPassword, "10.0.0.1"); }),
      "<none>");
  EXPECT_EQ(store_->Audit().ListAudit("auth.login.rate_limited", 10).size(), 1u)
      << "one row per window, not one per refused attempt";
}

TEST_F(AuthHardening, AccountLocksAfterConsecutiveFailuresWithoutArgon2) {
  AuthOptions options = CheapAuthOptions();
  options.login_throttle.max_failures = 5;
  options.login_throttle.lock_ms = 15 * 60'000;
  Open(options);
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  for (int i = 0; i < 5; ++i) {
    // A spray from many addresses: the per-address limit never sees it.
    std::string ip = "10.9.0." + std::to_string(i);
    EXPECT_EQ(CodeOf([&] { service_->authentication().Login("alice@example.com", "wrong", ip); }),
              "auth.login.bad_credentials");
  }
  EXPECT_EQ(
      CodeOf([&] { service_->authentication().Login("alice@example.com", kPassword, "10.9.1.1"); }),
      "auth.login.locked")
      << "even the right password waits for the lock";
  EXPECT_EQ(store_->Audit().ListAudit("auth.login.locked", 10).size(), 1u);
  // Unknown emails lock the same way (no enumeration through the lock).
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(
        CodeOf([&] { service_->authentication().Login("nobody@example.com", "x", "10.9.2.1"); }),
        "auth.login.bad_credentials");
  }
  EXPECT_EQ(
      CodeOf([&] { service_->authentication().Login("nobody@example.com", "x", "10.9.2.1"); }),
      "auth.login.locked");
}

TEST_F(AuthHardening, LockExpiresAndSuccessClearsTheCount) {
  AuthOptions options = CheapAuthOptions();
  options.login_throttle.max_failures = 3;
  options.login_throttle.lock_ms = 60'000;
  Open(options);
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  for (int i = 0; i < 3; ++i) {
    CodeOf([&] { service_->authentication().Login("alice@example.com", "wrong", "10.0.0.1"); });
  }
  EXPECT_EQ(
      CodeOf([&] { service_->authentication().Login("alice@example.com", kPassword, "10.0.0.1"); }),
      "auth.login.locked");
  Advance(60'001);
  EXPECT_EQ(
      CodeOf([&] { service_->authentication().Login("alice@example.com", kPassword, "10.0.0.1"); }),
      "<none>");
  // Two failures, a success, two failures: never three consecutive, never locked.
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 2; ++i) {
      CodeOf([&] { service_->authentication().Login("alice@example.com", "wrong", "10.0.0.1"); });
    }
    EXPECT_EQ(CodeOf([&] {
                service_->authentication().Login("alice@example.com", kPassword, "10.0.0.1");
              }),
              "<none>");
  }
}

// With a production-sized Argon2, a refusal that ran it would take tens of milliseconds.
TEST_F(AuthHardening, UnknownRevokedAndWrongSecretCostTheSameAndNoArgon2) {
  AuthOptions options = CheapAuthOptions();
  options.hasher = Argon2Params{.time_cost = 3, .memory_kib = 32768, .parallelism = 1};
  Open(options);
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey live = KeyFor("alice@example.com", Scope::kRead);
  IssuedApiKey revoked = KeyFor("alice@example.com", Scope::kRead);
  service_->keys().RevokeApiKeyById(revoked.record.id);
  const std::string wrong = live.plaintext.substr(0, 17) + std::string(48, 'A');
  const std::string unknown = GenerateApiKey().plaintext;

  auto started = std::chrono::steady_clock::now();
  ASSERT_TRUE(service_->hasher().VerifySecret(
      store_->Credentials().FindApiKey(live.record.id)->key_hash, live.plaintext));
  const double argon_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  for (const std::string& token : {wrong, unknown, revoked.plaintext}) {
    double worst = 0;
    for (int i = 0; i < 5; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(token, "10.0.0.7"); }),
                "auth.api_key.invalid");
      worst = std::max(
          worst,
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    EXPECT_LT(worst * 4, argon_ms)
        << "a refusal ran Argon2 (" << worst << " ms vs one Argon2 " << argon_ms << " ms)";
  }
  EXPECT_EQ(
      CodeOf([&] { service_->authentication().AuthenticateApiKey(live.plaintext, "10.0.0.7"); }),
      "<none>");
}

// A key issued before its pre-check existed: Argon2 is bounded per key id, and the first
// good verification back-fills the check.
TEST_F(AuthHardening, LegacyKeysAreBoundedAndBackFilled) {
  AuthOptions options = CheapAuthOptions();
  options.argon2_per_key_per_minute = 3;
  Open(options);
  User alice = MakeMember("alice@example.com", MemberFlags{true, true, false});
  GeneratedApiKey generated = GenerateApiKey();
  ApiKeyRecord legacy{generated.id,
                      alice.id,
                      store_->Workspaces().FindWorkspaceByName("default")->id,
                      "legacy",
                      KeyKind::kUser,
                      Scope::kRead,
                      service_->hasher().HashSecret(generated.plaintext),
                      false,
                      kStartMs,
                      std::nullopt,
                      std::nullopt,
                      /*key_check=*/"",
                      /*minted_by=*/""};
  store_->Credentials().InsertApiKey(legacy);
  const std::string wrong = generated.plaintext.substr(0, 17) + std::string(48, 'B');
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(CodeOf([&] {
                service_->authentication().AuthenticateApiKey(wrong, "10.0.0." + std::to_string(i));
              }),
              "auth.api_key.invalid");
  }
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(wrong, "10.0.0.9"); }),
            "rate_limit.exceeded")
      << "the fourth Argon2 for one key id in a minute is refused, whatever the address";
  Advance(60'000);
  EXPECT_EQ(CodeOf([&] {
              service_->authentication().AuthenticateApiKey(generated.plaintext, "10.0.0.1");
            }),
            "<none>");
  EXPECT_EQ(store_->Credentials().FindApiKey(generated.id)->key_check,
            Authenticator::ApiKeyCheck(generated.plaintext));
}

TEST_F(AuthHardening, RepeatedRefusalsAreAggregated) {
  Open(CheapAuthOptions());
  for (int i = 0; i < 20; ++i) {
    CodeOf([&] {
      service_->authentication().AuthenticateApiKey(GenerateApiKey().plaintext, "10.7.7.7");
    });
  }
  EXPECT_EQ(store_->Audit().ListAudit("auth.api_key.rejected", 100).size(), 1u);
  Advance(61'000);
  CodeOf([&] { service_->authentication().AuthenticateApiKey("garbage", "10.7.7.7"); });
  auto rows = store_->Audit().ListAudit("auth.api_key.rejected", 100);
  ASSERT_EQ(rows.size(), 3u) << "first row, the aggregate of the other 19, the next window's row";
  int aggregated = 0;
  for (const AuditEvent& row : rows) {
    if (!row.details.contains("aggregated")) continue;
    ++aggregated;
    EXPECT_EQ(row.details["aggregated"]["count"], 19);
    EXPECT_LE(row.details["aggregated"]["first_seen_ms"].get<int64_t>(),
              row.details["aggregated"]["last_seen_ms"].get<int64_t>());
  }
  EXPECT_EQ(aggregated, 1);
}

}  // namespace
}  // namespace dp::test
