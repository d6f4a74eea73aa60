#pragma once
// Authentication and credential management (MCP spec §4, auth.md §7, workspaces design §5):
// API-key and session validation behind a ≤ TTL cache, local login, key issuance and
// revocation, the two-axis access check, and the operator verbs the CLI drives.
// Thread-safe; every method blocks (store, Argon2): call from the blocking pool.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/auth/login_throttle.hpp"
#include "datapipelines/auth/principal.hpp"
#include "datapipelines/auth/secret_hasher.hpp"
#include "datapipelines/auth/ttl_cache.hpp"
#include "datapipelines/results/throttle_store.hpp"
#include "datapipelines/service/audit_log.hpp"
#include "datapipelines/store/credential_store.hpp"
#include "datapipelines/store/user_store.hpp"
#include "datapipelines/store/workspace_store.hpp"

namespace dp {

struct AuthOptions {
  std::chrono::milliseconds cache_ttl{std::chrono::seconds(60)};
  std::chrono::milliseconds session_ttl{std::chrono::hours(8)};
  Argon2Params hasher;
  std::function<int64_t()> clock;  // epoch ms; empty = NowMs
  std::size_t cache_max_entries = 10000;
  LoginThrottleOptions login_throttle;  // per-address rate and per-account lockout (§5A.3)
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

struct CreateApiKeyRequest {
  std::string name;  // 1..100 characters
  Scope scope = Scope::kRead;
  KeyKind kind = KeyKind::kUser;
  std::string workspace_name;  // empty = the issuer's active (or pinned) workspace
  std::optional<int64_t> expires_at_ms;
};

struct IssuedApiKey {
  ApiKeyRecord record;  // key_hash cleared
  std::string workspace_name;
  std::string plaintext;  // shown once
};

struct MemberInfo {
  std::string user_id;
  std::string email;
  std::string display_name;
  Role role = Role::kViewer;
  int64_t joined_at_ms = 0;
};

struct BootstrapRequest {
  std::string admin_email;
  std::string admin_password;  // empty = generate one (returned once)
  std::string workspace_name = "default";
  std::string key_name = "bootstrap";
};

struct BootstrapResult {
  bool created_user = false;
  bool created_workspace = false;
  bool created_membership = false;
  bool created_key = false;
  std::string user_id;
  std::string workspace_id;
  std::string generated_password;   // set only when the user was created with a generated one
  std::optional<IssuedApiKey> key;  // set only when a key was created
};

class AuthService {
 public:
  AuthService(UserStore& users, WorkspaceStore& workspaces, CredentialStore& credentials,
              AuditLog& audit, AuthOptions options = {});

  // --- request authentication -------------------------------------------------------------
  // auth.md §7.3. The key kind is returned, not judged: the transport refuses kinds.
  Principal AuthenticateApiKey(std::string_view token, std::string_view source_ip);
  // The principal of a key whose validation is fresh in the cache (unexpired, owner active),
  // without touching the store; nullopt otherwise, and then nothing was done (no audit row,
  // no refusal): the caller takes the full path, AuthenticateApiKey.
  std::optional<Principal> CachedApiKeyPrincipal(std::string_view token) const;
  Principal AuthenticateSession(std::string_view cookie_token);
  LoginResult Login(std::string_view email, std::string_view password, std::string_view source_ip);
  void Logout(std::string_view cookie_token);

  // --- self-service keys ------------------------------------------------------------------
  // auth.md §7.4/§7.7/§11A.4: the issuer holds `author` in the pinned workspace (a super admin
  // anywhere), the scope is at most the issuer's capability (and a key's own scope), an
  // endpoint key needs `author` on both axes, and a `server` key is minted by a super admin's
  // session only. The record names the minting credential (ApiKeyRecord::minted_by).
  IssuedApiKey CreateApiKey(const Principal& issuer, const CreateApiKeyRequest& request);
  std::vector<ApiKeyRecord> ListApiKeys(const Principal& principal);  // own keys, no hashes
  // Own keys; a ws_admin any key pinned to their workspace; a super admin any key. A key
  // revokes only inside its own workspace and only keys no wider than itself (auth.md §7.6):
  // a `read` key cannot revoke its owner's `author` key, and no key revokes a `server` key.
  void RevokeApiKey(const Principal& principal, const std::string& key_id);
  // The requested scope's wire spelling: `admin` is auth.key_scope_unavailable (auth.md §7.5),
  // anything else unknown is request.validation.invalid.
  static Scope ParseRequestedScope(std::string_view text);
  // The instance verbs (revoke a user's keys, read the instance audit log): a super admin, and
  // never through a key (no key holds `admin`, auth.md §7.5).
  void RequireInstanceAdmin(const Principal& principal) const;
  // Revokes every live key of the user (an operator verb: the CLI, or a super admin over
  // REST); returns the ids revoked. actor_user_id "" = the operator shell.
  std::vector<std::string> RevokeAllKeysOf(const std::string& email,
                                           const std::string& actor_user_id);

  // A signed-in person changes their own password (auth.md §5A.7: session-only, so a leaked
  // key cannot rotate its owner's password). The current password must verify. Sessions
  // already open stay valid until they expire (there is no per-user session revocation yet).
  void ChangeOwnPassword(const Principal& principal, const std::string& current_password,
                         const std::string& new_password);

  // --- operator verbs (the CLI; the shell is the operator) --------------------------------
  // `actor_user_id` (the UI's instance admin; empty for the CLI) goes on the audit event.
  User CreateUser(const std::string& email, const std::string& display_name,
                  const std::string& password, bool super_admin,
                  const std::string& actor_user_id = "");
  void SetUserActive(const std::string& email, bool active, const std::string& actor_user_id = "");
  // A random password for an account an operator or admin sets up (24 characters), handed over
  // once and out of band.
  static std::string NewOneTimePassword();
  // Operator reset (the shell is the operator). An empty password generates one, returned
  // once; the user's open sessions stay valid until they expire.
  std::string SetPassword(const std::string& email, const std::string& password);
  Workspace CreateWorkspace(const std::string& name, const std::string& display_name,
                            const std::string& created_by_email);
  void SetMembership(const std::string& workspace_name, const std::string& email, Role role);
  // False when the user was not a member.
  bool RemoveMembership(const std::string& workspace_name, const std::string& email);
  IssuedApiKey CreateApiKeyFor(const std::string& email, const std::string& workspace_name,
                               const std::string& name, Scope scope, KeyKind kind,
                               std::optional<int64_t> expires_at_ms);
  void RevokeApiKeyById(const std::string& key_id);
  std::vector<User> ListUsers();  // password hashes cleared
  std::vector<Workspace> ListWorkspaces();
  std::vector<MemberInfo> ListMembers(const std::string& workspace_name);
  std::vector<ApiKeyRecord> ListAllKeys();  // key hashes cleared
  BootstrapResult Bootstrap(const BootstrapRequest& request);

  // The CSRF token of a session (double submit bound to the session): base64url of
  // HMAC-SHA256 keyed by the session token. A planted dp_csrf cookie cannot match it, and it
  // needs no server-wide secret, so every instance derives the same token.
  static std::string CsrfTokenFor(std::string_view session_token);
  // The fast pre-check stored beside a key's Argon2 hash (hex of an HMAC-SHA256).
  static std::string ApiKeyCheck(std::string_view full_token);
  // Constant-time check of a presented DP-CSRF-Token against the session's own token.
  static bool CsrfTokenMatches(std::string_view session_token, std::string_view presented);
  const SecretHasher& hasher() const { return hasher_; }
  // The sink every auth event goes to (the REST choke point writes through it too).
  AuditLog& audit_log() const { return audit_; }

 private:
  struct KeyEntry {
    ApiKeyRecord key;  // key_hash = the hash this token was verified against
    User user;         // password_hash cleared
    std::string workspace_name;
    std::optional<Role> role;
  };
  struct SessionEntry {
    Session session;
    User user;
    std::string workspace_name;
    std::optional<Role> role;
  };

  int64_t Now() const;
  KeyEntry LoadKeyEntry(const std::string& key_id, const std::string& full_token,
                        const std::optional<KeyEntry>& stale, std::string_view source_ip);
  Principal KeyPrincipal(const KeyEntry& entry, std::string_view source_ip);
  static Principal PrincipalOf(const KeyEntry& entry);
  SessionEntry LoadSessionEntry(const std::string& token_hash);
  Principal SessionPrincipal(const SessionEntry& entry);
  std::optional<Role> CurrentRole(const std::string& workspace_id, const std::string& user_id);
  [[noreturn]] void RejectKey(const std::string& key_id, std::string_view source_ip,
                              std::string_view reason, bool expired);
  // require_author: the self-service rule (§11A.4); the operator CLI mints for any member,
  // capped by the owner's role.
  IssuedApiKey IssueKey(const User& issuer, const Workspace& workspace,
                        std::optional<Scope> issuer_scope_cap, const CreateApiKeyRequest& request,
                        const std::string& minted_by, bool require_author);
  void RevokeAndAudit(const ApiKeyRecord& key, const std::string& actor_user_id);
  void InvalidateUser(const std::string& user_id);
  User RequireUser(const std::string& email);
  Workspace RequireWorkspace(const std::string& name);
  std::string DummyHash();
  void Audit(std::string event, const std::string& user_id, const std::string& key_id,
             const std::string& workspace_id, std::string_view source_ip, Json details);

  UserStore& users_;
  WorkspaceStore& workspaces_;
  CredentialStore& credentials_;
  AuditLog& audit_;
  AuthOptions options_;
  SecretHasher hasher_;
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
