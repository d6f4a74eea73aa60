#pragma once
// Who is calling (MCP spec §4, auth.md §7.3, §5A): API-key and session validation behind a
// ≤ TTL cache, local login with its dampers, logout. The caches are this class's: the key and
// account services call ForgetKey / ForgetUser after a write so this instance refuses a
// revoked key or a demoted member at once. Thread-safe; every method but the cached lookup
// blocks (store, Argon2): call from the blocking pool.
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "datapipelines/limits/throttle_store.hpp"
#include "datapipelines/service/identity/auth_records.hpp"
#include "datapipelines/service/identity/login_throttle.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/service/identity/ttl_cache.hpp"

namespace dp {

struct AuthenticatorOptions {
  std::chrono::milliseconds cache_ttl{std::chrono::seconds(60)};
  std::chrono::milliseconds session_ttl{std::chrono::hours(8)};
  std::size_t cache_max_entries = 10000;
  LoginThrottleOptions login_throttle;  // per-address rate and per-account lockout (§5A.3)
  // datapipelines.auth.local.enabled: false refuses every password sign-in (single sign-on
  // only); the accounts and their hashes stay.
  bool local_accounts_enabled = true;
  // Argon2 verifications of API keys, per key id and per client address, per minute.
  int argon2_per_key_per_minute = 30;
  int argon2_per_address_per_minute = 120;
  // Where the login and Argon2 counters live: Redis (OpenThrottleStore of the rate limiter's
  // URL) so instances share them; null = in this process.
  std::shared_ptr<ThrottleStore> throttle_store;
};

struct LoginResult {
  std::string token;  // dp_session cookie value; only its SHA-256 is stored
  int64_t expires_at_ms = 0;
  Principal principal;
};

class Authenticator {
 public:
  Authenticator(const AuthRecords& records, AuthenticatorOptions options);

  // auth.md §7.3. The key kind is returned, not judged: the transport refuses kinds.
  Principal AuthenticateApiKey(std::string_view token, std::string_view source_ip);
  // The principal of a key whose validation is fresh in the cache (unexpired, owner active),
  // without touching the store; nullopt otherwise, and then nothing was done (no audit row,
  // no refusal): the caller takes the full path, AuthenticateApiKey.
  std::optional<Principal> CachedApiKeyPrincipal(std::string_view token) const;
  Principal AuthenticateSession(std::string_view cookie_token);
  LoginResult Login(std::string_view email, std::string_view password, std::string_view source_ip);
  // The session a sign-in opens, whichever way the person proved who they are (a password, an
  // OpenID provider): the same cookie, the same first workspace, one auth.login.success row
  // naming the provider. The caller has checked that the account is active.
  LoginResult OpenSession(const User& user, std::string_view source_ip, std::string_view provider);
  void Logout(std::string_view cookie_token);

  // The second layer under a signed-in password change (auth.md §5A.7): the same lockout as
  // sign-in, consulted before any Argon2 work, and the same failure count. Throws
  // auth.login.locked or auth.login.bad_credentials, each audited (auth.password.change_locked,
  // auth.password.change_failed).
  void VerifyOwnPassword(const User& user, std::string_view password, std::string_view source_ip);
  // Milliseconds the account stays locked (0 = not locked), for the admin screen.
  int64_t LockedForMs(const std::string& email);
  // An admin clears the lockout (unlock, or a password reset).
  void Unlock(const std::string& email);
  bool local_accounts_enabled() const { return options_.local_accounts_enabled; }
  // Where the request-level auth events go (auth.workspace.header_rejected).
  AuditLog& audit_log() const { return records_.audit_log(); }

  // Drop cached validations after a store write (call after the write: a concurrent refresh
  // that read the old row loses its Put).
  void ForgetKey(const std::string& key_id);
  void ForgetUser(const std::string& user_id);
  // Every cached validation (a workspace was deactivated or restored).
  void ForgetAll();

  // The fast pre-check stored beside a key's Argon2 hash (hex of an HMAC-SHA256).
  static std::string ApiKeyCheck(std::string_view full_token);
  // The CSRF token of a session (double submit bound to the session): base64url of
  // HMAC-SHA256 keyed by the session token. A planted dp_csrf cookie cannot match it, and it
  // needs no server-wide secret, so every instance derives the same token.
  static std::string CsrfTokenFor(std::string_view session_token);
  // Constant-time check of a presented DP-CSRF-Token against the session's own token.
  static bool CsrfTokenMatches(std::string_view session_token, std::string_view presented);

 private:
  struct KeyEntry {
    ApiKeyRecord key;  // key_hash = the hash this token was verified against
    User user;         // password_hash cleared
    std::string workspace_name;
    std::optional<MemberFlags> membership;
    bool workspace_active = true;  // a key pinned to a deactivated workspace is refused
  };
  struct SessionEntry {
    Session session;
    User user;
    std::string workspace_name;
    std::optional<MemberFlags> membership;
  };

  KeyEntry LoadKeyEntry(const std::string& key_id, const std::string& full_token,
                        const std::optional<KeyEntry>& stale, std::string_view source_ip);
  void VerifyWithArgon2(const ApiKeyRecord& record, const std::string& full_token,
                        std::string_view source_ip);
  Principal KeyPrincipal(const KeyEntry& entry, std::string_view source_ip);
  static Principal PrincipalOf(const KeyEntry& entry);
  SessionEntry LoadSessionEntry(const std::string& token_hash);
  Principal SessionPrincipal(const SessionEntry& entry);
  void TakeLoginAttempt(const std::string& email, std::string_view source_ip);
  [[noreturn]] void RecordLoginFailure(const std::string& email, const std::optional<User>& user,
                                       std::string_view source_ip);
  [[noreturn]] void RejectKey(const std::string& key_id, std::string_view source_ip,
                              std::string_view reason, bool expired);
  const std::string& DummyHash();

  const AuthRecords& records_;
  AuthenticatorOptions options_;
  std::shared_ptr<ThrottleStore> throttle_store_;
  LoginThrottle login_throttle_;
  AttemptWindow argon_per_key_;
  AttemptWindow argon_per_address_;
  TtlCache<KeyEntry> key_cache_;
  TtlCache<SessionEntry> session_cache_;
  std::once_flag dummy_once_;
  std::string dummy_hash_;
};

}  // namespace dp
