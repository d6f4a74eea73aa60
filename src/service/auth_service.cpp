#include "datapipelines/service/auth_service.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <tuple>

#include "datapipelines/auth/access_policy.hpp"
#include "datapipelines/auth/account_rules.hpp"
#include "datapipelines/auth/api_key_format.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/results/memory_throttle_store.hpp"
#include "datapipelines/store/duplicate_key_error.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

// One message for every invalid-key reason: the caller learns nothing about which check failed.
constexpr const char* kInvalidKeyMessage =
    "the API key is invalid: unknown, revoked, or its owner is deactivated";
constexpr const char* kInvalidLoginMessage = "invalid email or password";

std::string Base64Url(std::string_view bytes) {
  std::string text = Base64Encode(bytes);
  std::replace(text.begin(), text.end(), '+', '-');
  std::replace(text.begin(), text.end(), '/', '_');
  text.erase(std::remove(text.begin(), text.end(), '='), text.end());
  return text;
}

Scope SessionScope(bool super_admin, const std::optional<Role>& role) {
  if (super_admin) return Scope::kAuthor;
  return role ? MaxScopeForRole(*role) : Scope::kRead;
}

User WithoutSecret(User user) {
  user.password_hash.clear();
  return user;
}

ApiKeyRecord WithoutSecret(ApiKeyRecord key) {
  key.key_hash.clear();
  key.key_check.clear();
  return key;
}

// The check every presented key is compared with when its id is unknown: same length and
// the same constant-time compare as a real one, matching no token.
const std::string& DummyKeyCheck() {
  static const std::string kDummy(64, '0');
  return kDummy;
}

bool IsExpired(const std::optional<int64_t>& expires_at_ms, int64_t now_ms) {
  return expires_at_ms && *expires_at_ms <= now_ms;
}

// The audit details of an operator verb: who did it, when it was not the shell.
Json WithActor(Json details, const std::string& actor_user_id) {
  if (!actor_user_id.empty()) details["by_user_id"] = actor_user_id;
  return details;
}

}  // namespace

AuthService::AuthService(UserStore& users, WorkspaceStore& workspaces, CredentialStore& credentials,
                         AuditLog& audit, AuthOptions options)
    : users_(users),
      workspaces_(workspaces),
      credentials_(credentials),
      audit_(audit),
      options_(std::move(options)),
      hasher_(options_.hasher),
      throttle_store_(options_.throttle_store ? options_.throttle_store
                                              : std::make_shared<MemoryThrottleStore>()),
      login_throttle_(options_.login_throttle, *throttle_store_),
      argon_per_key_(options_.argon2_per_key_per_minute, *throttle_store_, "argon2:key"),
      argon_per_address_(options_.argon2_per_address_per_minute, *throttle_store_,
                         "argon2:address"),
      key_cache_(options_.cache_ttl.count(), options_.cache_max_entries),
      session_cache_(options_.cache_ttl.count(), options_.cache_max_entries) {}

int64_t AuthService::Now() const { return options_.clock ? options_.clock() : NowMs(); }

// ---------------------------------------------------------------------------------------------
// API keys (auth.md §7.3)

Principal AuthService::AuthenticateApiKey(std::string_view token, std::string_view source_ip) {
  auto parsed = ParseApiKey(token);
  if (!parsed) RejectKey("", source_ip, "malformed", false);
  // Keyed by a digest of the whole token: a hit proves the caller holds the verified secret.
  const std::string cache_key = Sha256Hex(parsed->full);
  const uint64_t generation = key_cache_.generation();
  auto hit = key_cache_.Lookup(cache_key, Now());
  if (hit && hit->fresh) return KeyPrincipal(hit->value, source_ip);

  std::optional<KeyEntry> stale;
  if (hit) stale = std::move(hit->value);
  KeyEntry entry = LoadKeyEntry(parsed->id, parsed->full, stale, source_ip);
  key_cache_.Put(cache_key, entry, Now(), generation);
  Principal principal = KeyPrincipal(entry, source_ip);
  // Once per cache refresh, not per request: last_used is informational.
  try {
    credentials_.TouchApiKey(entry.key.id, Now());
  } catch (const std::exception& e) {
    spdlog::warn("could not record last use of API key {}: {}", entry.key.id, e.what());
  }
  return principal;
}

std::optional<Principal> AuthService::CachedApiKeyPrincipal(std::string_view token) const {
  auto parsed = ParseApiKey(token);
  if (!parsed) return std::nullopt;
  auto hit = key_cache_.Lookup(Sha256Hex(parsed->full), Now());
  if (!hit || !hit->fresh) return std::nullopt;
  const KeyEntry& entry = hit->value;
  if (IsExpired(entry.key.expires_at_ms, Now()) || !entry.user.is_active) return std::nullopt;
  return PrincipalOf(entry);
}

AuthService::KeyEntry AuthService::LoadKeyEntry(const std::string& key_id,
                                                const std::string& full_token,
                                                const std::optional<KeyEntry>& stale,
                                                std::string_view source_ip) {
  auto record = credentials_.FindApiKey(key_id);
  // One HMAC and one constant-time compare whatever the id: an unknown id, a revoked key and a
  // wrong secret cost the same and none of them reaches Argon2 (issue 9).
  const std::string presented = ApiKeyCheck(full_token);
  const bool has_check = record && !record->key_check.empty();
  const bool check_ok =
      ConstantTimeEquals(has_check ? record->key_check : DummyKeyCheck(), presented);
  if (!record) RejectKey(key_id, source_ip, "unknown", false);
  if (has_check && !check_ok) RejectKey(key_id, source_ip, "hash_mismatch", false);
  if (record->is_revoked) RejectKey(key_id, source_ip, "revoked", false);
  if (IsExpired(record->expires_at_ms, Now())) RejectKey(key_id, source_ip, "expired", true);
  // Argon2 runs once per token: a refresh against an unchanged hash reuses the verification.
  const bool verified = stale && stale->key.key_hash == record->key_hash;
  if (!verified) {
    // Bounded per key id and per address: a key issued before its pre-check existed is the
    // one path a wrong secret can still spend Argon2 on.
    for (auto* window : {&argon_per_key_, &argon_per_address_}) {
      auto verdict =
          window->Take(window == &argon_per_key_ ? key_id : std::string(source_ip), Now());
      if (!verdict.allowed) {
        throw DomainError(errc::kRateLimitExceeded,
                          "Too many API key verifications; retry after the window.",
                          Json{{"retry_after_seconds", verdict.retry_after_seconds}});
      }
    }
    if (!hasher_.VerifySecret(record->key_hash, full_token)) {
      RejectKey(key_id, source_ip, "hash_mismatch", false);
    }
    if (!has_check) {
      try {
        credentials_.SetApiKeyCheck(record->id, presented);
      } catch (const std::exception& e) {
        spdlog::warn("could not back-fill the pre-check of API key {}: {}", record->id, e.what());
      }
    }
  }
  auto user = users_.FindUserById(record->user_id);
  if (!user) RejectKey(key_id, source_ip, "owner_unknown", false);
  KeyEntry entry{std::move(*record), WithoutSecret(std::move(*user)), "", std::nullopt};
  if (!entry.key.workspace_id.empty()) {
    auto workspace = workspaces_.FindWorkspaceById(entry.key.workspace_id);
    if (!workspace) RejectKey(key_id, source_ip, "workspace_unknown", false);
    entry.workspace_name = workspace->name;
    entry.role = CurrentRole(entry.key.workspace_id, entry.user.id);
  }
  return entry;
}

Principal AuthService::KeyPrincipal(const KeyEntry& entry, std::string_view source_ip) {
  if (IsExpired(entry.key.expires_at_ms, Now())) {
    RejectKey(entry.key.id, source_ip, "expired", true);
  }
  if (!entry.user.is_active) RejectKey(entry.key.id, source_ip, "owner_inactive", false);
  return PrincipalOf(entry);
}

Principal AuthService::PrincipalOf(const KeyEntry& entry) {
  Principal principal;
  principal.user_id = entry.user.id;
  principal.email = entry.user.email;
  principal.display_name = entry.user.display_name;
  principal.key_id = entry.key.id;
  principal.workspace_id = entry.key.workspace_id;
  principal.workspace_name = entry.workspace_name;
  principal.scope = entry.key.scope;
  principal.role = entry.role;
  principal.kind = entry.key.kind;
  principal.super_admin = entry.user.is_super_admin;
  principal.via_session = false;
  return principal;
}

void AuthService::RejectKey(const std::string& key_id, std::string_view source_ip,
                            std::string_view reason, bool expired) {
  // The key id is the public half; the secret never reaches the audit row. Anyone can repeat
  // a refusal, so repeats from one address are aggregated instead of a row each.
  AuditEvent row;
  row.timestamp_ms = Now();
  row.event = "auth.api_key.rejected";
  row.key_id = key_id;
  row.source_ip = std::string(source_ip);
  row.details = {{"reason", reason}};
  audit_.RecordRepeatable(std::move(row), source_ip);
  if (expired) throw DomainError(errc::kApiKeyExpired, "the API key has expired");
  throw DomainError(errc::kApiKeyInvalid, kInvalidKeyMessage);
}

// ---------------------------------------------------------------------------------------------
// Sessions and login

Principal AuthService::AuthenticateSession(std::string_view cookie_token) {
  if (cookie_token.empty()) throw DomainError(errc::kSessionInvalid, "the session is invalid");
  const std::string token_hash = Sha256Hex(cookie_token);
  const uint64_t generation = session_cache_.generation();
  auto hit = session_cache_.Lookup(token_hash, Now());
  if (hit && hit->fresh) return SessionPrincipal(hit->value);
  SessionEntry entry = LoadSessionEntry(token_hash);
  session_cache_.Put(token_hash, entry, Now(), generation);
  return SessionPrincipal(entry);
}

AuthService::SessionEntry AuthService::LoadSessionEntry(const std::string& token_hash) {
  auto session = credentials_.FindSession(token_hash);
  if (!session) throw DomainError(errc::kSessionInvalid, "the session is invalid");
  auto user = users_.FindUserById(session->user_id);
  if (!user) throw DomainError(errc::kSessionInvalid, "the session is invalid");
  SessionEntry entry{std::move(*session), WithoutSecret(std::move(*user)), "", std::nullopt};
  if (!entry.session.workspace_id.empty()) {
    if (auto workspace = workspaces_.FindWorkspaceById(entry.session.workspace_id)) {
      entry.workspace_name = workspace->name;
      entry.role = CurrentRole(workspace->id, entry.user.id);
    } else {
      entry.session.workspace_id.clear();
    }
  }
  return entry;
}

Principal AuthService::SessionPrincipal(const SessionEntry& entry) {
  if (entry.session.expires_at_ms <= Now()) {
    throw DomainError(errc::kSessionExpired, "the session has expired; log in again");
  }
  if (!entry.user.is_active) throw DomainError(errc::kSessionInvalid, "the session is invalid");
  Principal principal;
  principal.user_id = entry.user.id;
  principal.email = entry.user.email;
  principal.display_name = entry.user.display_name;
  principal.workspace_id = entry.session.workspace_id;
  principal.workspace_name = entry.workspace_name;
  principal.role = entry.role;
  principal.super_admin = entry.user.is_super_admin;
  principal.scope = SessionScope(principal.super_admin, principal.role);
  principal.kind = KeyKind::kUser;
  principal.via_session = true;
  principal.session_token_hash = entry.session.token_hash;
  return principal;
}

LoginResult AuthService::Login(std::string_view email, std::string_view password,
                               std::string_view source_ip) {
  const std::string normalized = NormalizeEmail(email).substr(0, 254);
  // The dampers run before any lookup or Argon2 work (auth.md §5A.3, §9).
  const int64_t started = Now();
  LoginThrottle::AddressVerdict address = login_throttle_.TakeAddressAttempt(source_ip, started);
  if (!address.allowed) {
    // One row per window, not one per refused attempt.
    if (address.first_refusal) {
      Audit("auth.login.rate_limited", "", "", "", source_ip,
            {{"limit_per_minute", options_.login_throttle.per_address_per_minute}});
    }
    throw DomainError(errc::kRateLimitExceeded,
                      "Too many login attempts from this address; retry after the window.",
                      Json{{"retry_after_seconds", address.retry_after_seconds}});
  }
  if (int64_t locked_ms = login_throttle_.LockedFor(normalized, started); locked_ms > 0) {
    throw DomainError(errc::kLoginLocked,
                      "This account is locked after repeated failed logins; retry later.",
                      Json{{"retry_after_seconds", (locked_ms + 999) / 1000}});
  }
  auto user = users_.FindUserByEmail(normalized);
  bool verified = false;
  if (user && !user->password_hash.empty()) {
    verified = hasher_.VerifySecret(user->password_hash, password);
  } else {
    // Same Argon2 cost whether or not the account exists: timing does not reveal emails.
    hasher_.VerifySecret(DummyHash(), password);
  }
  if (!verified) {
    Audit("auth.login.failure", user ? user->id : "", "", "", source_ip,
          {{"email", normalized}, {"reason", "invalid_credentials"}});
    // Unknown emails count too: whether an account locks must not reveal that it exists.
    if (login_throttle_.RecordFailure(normalized, Now())) {
      Audit("auth.login.locked", user ? user->id : "", "", "", source_ip,
            {{"email", normalized},
             {"max_failures", options_.login_throttle.max_failures},
             {"lock_seconds", options_.login_throttle.lock_ms / 1000}});
    }
    throw DomainError(errc::kLoginInvalid, kInvalidLoginMessage);
  }
  login_throttle_.RecordSuccess(normalized);
  if (!user->is_active) {
    Audit("auth.login.user_inactive", user->id, "", "", source_ip, {{"email", normalized}});
    throw DomainError(errc::kLoginUserInactive, "this account is deactivated");
  }
  auto memberships = workspaces_.ListMembershipsOfUser(user->id);
  std::sort(memberships.begin(), memberships.end(), [](const auto& a, const auto& b) {
    return std::tie(a.joined_at_ms, a.workspace_id) < std::tie(b.joined_at_ms, b.workspace_id);
  });
  const int64_t now = Now();
  LoginResult result;
  result.token = Base64Url(RandomBytes(32));
  result.expires_at_ms = now + options_.session_ttl.count();
  Session session{Sha256Hex(result.token), user->id,
                  memberships.empty() ? "" : memberships.front().workspace_id, now,
                  result.expires_at_ms};
  credentials_.InsertSession(session);
  const uint64_t generation = session_cache_.generation();
  SessionEntry entry = LoadSessionEntry(session.token_hash);
  session_cache_.Put(session.token_hash, entry, Now(), generation);
  result.principal = SessionPrincipal(entry);
  Audit("auth.login.success", user->id, "", session.workspace_id, source_ip,
        {{"email", normalized}});
  return result;
}

std::string AuthService::ApiKeyCheck(std::string_view full_token) {
  // The secret half carries 240 random bits, so a fixed label (domain separation) is the
  // whole key: nothing shared between instances or the operator CLI is needed.
  return Sha256Hex(HmacSha256("datapipelines api key check v1", full_token));
}

std::string AuthService::CsrfTokenFor(std::string_view session_token) {
  return Base64Url(HmacSha256(session_token, "datapipelines csrf v1"));
}

bool AuthService::CsrfTokenMatches(std::string_view session_token, std::string_view presented) {
  return !session_token.empty() && ConstantTimeEquals(CsrfTokenFor(session_token), presented);
}

void AuthService::Logout(std::string_view cookie_token) {
  if (cookie_token.empty()) return;
  const std::string token_hash = Sha256Hex(cookie_token);
  auto session = credentials_.FindSession(token_hash);
  credentials_.DeleteSession(token_hash);
  session_cache_.Erase(token_hash);
  if (session)
    Audit("auth.logout", session->user_id, "", session->workspace_id, "", Json::object());
}

// ---------------------------------------------------------------------------------------------
// Key management

IssuedApiKey AuthService::CreateApiKey(const Principal& issuer,
                                       const CreateApiKeyRequest& request) {
  auto user = users_.FindUserById(issuer.user_id);
  if (!user) throw DomainError(errc::kUserNotFound, "the issuing user no longer exists");
  if (!user->is_active) throw DomainError(errc::kLoginUserInactive, "this account is deactivated");
  const std::string& name =
      request.workspace_name.empty() ? issuer.workspace_name : request.workspace_name;
  if (name.empty()) {
    throw DomainError(errc::kRequestInvalid, "no active workspace: name the workspace for the key",
                      {{"field", "workspace"}});
  }
  Workspace workspace = RequireWorkspace(name);
  std::optional<Scope> cap;
  if (!issuer.via_session) {
    // A key stays inside its pinned workspace and never mints more than its own scope.
    if (workspace.id != issuer.workspace_id) {
      throw DomainError(errc::kWorkspaceMembershipRequired,
                        "an API key may only issue keys in its own workspace",
                        {{"workspace", workspace.name}});
    }
    cap = issuer.scope;
  }
  if (request.kind == KeyKind::kServer) {
    // Whoever holds a server key writes released content into this deployment (§7.7).
    if (!issuer.via_session && issuer.super_admin) {
      throw DomainError(errc::kScopeInsufficient,
                        "A server key is minted by a super admin signed in; no API key holds "
                        "the admin scope it needs.",
                        {{"required", "admin"},
                         {"granted", ToString(issuer.scope)},
                         {"reason", "server_key_needs_admin"}});
    }
    if (!issuer.super_admin) {
      throw DomainError(
          errc::kRoleRequired, "A server key is minted by a super admin only.",
          {{"required", "super_admin"},
           {"role", issuer.role ? Json(std::string(ToString(*issuer.role))) : Json(nullptr)},
           {"reason", "server_key_needs_admin"}});
    }
  }
  if (request.kind == KeyKind::kEndpoint && !issuer.via_session && issuer.scope < Scope::kAuthor) {
    // Binding keys to endpoint paths is an authoring act on both axes (§7.6).
    throw DomainError(errc::kScopeInsufficient,
                      "An endpoint key is minted with author scope; this key's scope is '" +
                          std::string(ToString(issuer.scope)) + "'.",
                      {{"required", "author"}, {"granted", ToString(issuer.scope)}});
  }
  return IssueKey(*user, workspace, cap, request, issuer.via_session ? "session" : issuer.key_id,
                  true);
}

Scope AuthService::ParseRequestedScope(std::string_view text) {
  if (text == "admin") {
    throw DomainError(
        errc::kKeyScopeUnavailable,
        "No API key may hold the admin scope; the instance verbs are a signed-in "
        "super admin's (auth.md 7.5).",
        {{"field", "scope"}, {"allowed", Json::array({"read", "execute", "author"})}});
  }
  auto scope = ParseScope(text);
  if (!scope) {
    throw DomainError(errc::kRequestInvalid, "'scope' must be read, execute or author.",
                      {{"field", "scope"}});
  }
  return *scope;
}

void AuthService::RequireInstanceAdmin(const Principal& principal) const {
  if (!principal.via_session) {
    throw DomainError(errc::kScopeInsufficient,
                      "Instance administration needs the admin scope, which no API key holds: "
                      "sign in as a super admin.",
                      {{"required", "admin"}, {"granted", ToString(principal.scope)}});
  }
  if (!principal.super_admin) {
    throw DomainError(
        errc::kRoleRequired, "Instance administration is a super admin's.",
        {{"required", "super_admin"},
         {"role", principal.role ? Json(std::string(ToString(*principal.role))) : Json(nullptr)}});
  }
}

IssuedApiKey AuthService::IssueKey(const User& issuer, const Workspace& workspace,
                                   std::optional<Scope> issuer_scope_cap,
                                   const CreateApiKeyRequest& request, const std::string& minted_by,
                                   bool require_author) {
  const std::size_t name_length = Utf8Length(request.name);
  if (name_length < 1 || name_length > kMaxKeyNameChars) {
    throw DomainError(errc::kRequestInvalid, "the key name must be 1 to 100 characters",
                      {{"field", "name"}});
  }
  if (IsExpired(request.expires_at_ms, Now())) {
    throw DomainError(errc::kRequestInvalid, "the key expiry must be in the future",
                      {{"field", "expires_at"}});
  }
  auto role = CurrentRole(workspace.id, issuer.id);
  if (!role && !issuer.is_super_admin) {
    throw DomainError(errc::kWorkspaceMembershipRequired,
                      "the issuer is not a member of workspace '" + workspace.name + "'",
                      {{"workspace", workspace.name}});
  }
  // Viewers and operators never mint keys (auth.md §11A.4, O-2).
  if (require_author && !issuer.is_super_admin && *role < Role::kAuthor) {
    throw DomainError(
        errc::kRoleRequired,
        "Issuing an API key needs the author role in workspace '" + workspace.name + "'.",
        {{"required", "author"}, {"role", std::string(ToString(*role))}});
  }
  // super_admin issues anywhere as a ws_admin would.
  Scope max = issuer.is_super_admin ? Scope::kAuthor : MaxScopeForRole(*role);
  if (issuer_scope_cap && *issuer_scope_cap < max) max = *issuer_scope_cap;
  if (request.scope > max) {
    throw DomainError(errc::kKeyScopeExceedsIssuer,
                      "a key's scope cannot exceed what its issuer may do in the workspace",
                      {{"requested", ToString(request.scope)}, {"max", ToString(max)}});
  }
  GeneratedApiKey generated = GenerateApiKey();
  ApiKeyRecord record{generated.id,
                      issuer.id,
                      workspace.id,
                      request.name,
                      request.kind,
                      request.scope,
                      hasher_.HashSecret(generated.plaintext),
                      false,
                      Now(),
                      request.expires_at_ms,
                      std::nullopt,
                      ApiKeyCheck(generated.plaintext),
                      minted_by};
  credentials_.InsertApiKey(record);
  Json details = {{"name", record.name},
                  {"scope", ToString(record.scope)},
                  {"kind", ToString(record.kind)},
                  {"minted_by", minted_by}};
  if (record.expires_at_ms) details["expires_at"] = FormatIso8601Ms(*record.expires_at_ms);
  Audit("auth.api_key.created", issuer.id, record.id, workspace.id, "", std::move(details));
  return IssuedApiKey{WithoutSecret(std::move(record)), workspace.name,
                      std::move(generated.plaintext)};
}

std::vector<ApiKeyRecord> AuthService::ListApiKeys(const Principal& principal) {
  std::vector<ApiKeyRecord> keys = credentials_.ListApiKeysOfUser(principal.user_id);
  for (auto& key : keys) {
    key.key_hash.clear();
    key.key_check.clear();
  }
  return keys;
}

void AuthService::RevokeApiKey(const Principal& principal, const std::string& key_id) {
  auto key = credentials_.FindApiKey(key_id);
  auto absent = [&] {
    return DomainError(errc::kApiKeyNotFound, "no such API key", {{"id", key_id}});
  };
  if (!key) throw absent();
  const bool own = key->user_id == principal.user_id;
  if (!principal.via_session) {
    // A key acts inside its pinned workspace, on keys no wider than itself (§7.6): a leaked
    // read key must not be able to take its owner's author key away.
    if (!own || key->workspace_id != principal.workspace_id) throw absent();
    const bool wider = key->kind == KeyKind::kServer ||
                       (key->kind == KeyKind::kEndpoint && principal.scope < Scope::kAuthor) ||
                       (key->kind == KeyKind::kUser && key->scope > principal.scope);
    if (wider) {
      const std::string needed(key->kind == KeyKind::kServer     ? "admin"
                               : key->kind == KeyKind::kEndpoint ? "author"
                                                                 : ToString(key->scope));
      throw DomainError(errc::kScopeInsufficient,
                        "This API key's scope is '" + std::string(ToString(principal.scope)) +
                            "'; revoking a " + std::string(ToString(key->kind)) +
                            " key of scope '" + needed + "' needs at least that.",
                        {{"required", needed},
                         {"granted", ToString(principal.scope)},
                         {"reason", "target_key_wider"}});
    }
  } else if (!own && !principal.super_admin) {
    // A workspace admin revokes any key pinned to their workspace (§11A); anyone else's key is
    // reported as absent: its existence is not the caller's business.
    auto role = key->workspace_id.empty() ? std::nullopt
                                          : CurrentRole(key->workspace_id, principal.user_id);
    if (!role || *role < Role::kWsAdmin) throw absent();
  }
  RevokeAndAudit(*key, principal.user_id);
}

std::vector<std::string> AuthService::RevokeAllKeysOf(const std::string& email,
                                                      const std::string& actor_user_id) {
  User user = RequireUser(email);
  std::vector<std::string> revoked;
  for (const ApiKeyRecord& key : credentials_.ListApiKeysOfUser(user.id)) {
    if (key.is_revoked) continue;
    RevokeAndAudit(key, actor_user_id);
    revoked.push_back(key.id);
  }
  Audit("auth.api_key.revoked_all", actor_user_id, "", "", "",
        {{"owner", user.id},
         {"email", user.email},
         {"count", revoked.size()},
         {"by", actor_user_id.empty() ? "operator" : "user"}});
  return revoked;
}

void AuthService::RevokeAndAudit(const ApiKeyRecord& key, const std::string& actor_user_id) {
  credentials_.RevokeApiKey(key.id);
  // After the store write: a concurrent refresh that read the old row loses its Put.
  key_cache_.EraseIf([&](const KeyEntry& entry) { return entry.key.id == key.id; });
  Audit("auth.api_key.revoked", actor_user_id, key.id, key.workspace_id, "",
        {{"owner", key.user_id}, {"by", actor_user_id.empty() ? "operator" : "user"}});
}

// ---------------------------------------------------------------------------------------------
// Operator verbs

std::string AuthService::NewOneTimePassword() { return Base64Url(RandomBytes(18)); }

User AuthService::CreateUser(const std::string& email, const std::string& display_name,
                             const std::string& password, bool super_admin,
                             const std::string& actor_user_id) {
  const std::string normalized = NormalizeEmail(email);
  if (!IsValidEmail(normalized)) {
    throw DomainError(errc::kUserEmailInvalid, "the email address is not valid",
                      {{"field", "email"}});
  }
  if (Utf8Length(password) < kMinPasswordChars) {
    throw DomainError(errc::kUserPasswordWeak, "the password must be at least 12 characters",
                      {{"min_length", kMinPasswordChars}});
  }
  auto duplicate = [&] {
    return DomainError(errc::kUserDuplicateEmail, "a user with this email already exists",
                       {{"email", normalized}});
  };
  if (users_.FindUserByEmail(normalized)) throw duplicate();
  User user{NewUuid(),
            normalized,
            display_name.empty() ? normalized : display_name,
            hasher_.HashSecret(password),
            true,
            super_admin,
            Now()};
  try {
    users_.InsertUser(user);
  } catch (const DuplicateKeyError&) {
    throw duplicate();
  }
  Audit("auth.user.created", user.id, "", "", "",
        WithActor({{"email", user.email}, {"super_admin", super_admin}}, actor_user_id));
  return WithoutSecret(std::move(user));
}

void AuthService::SetUserActive(const std::string& email, bool active,
                                const std::string& actor_user_id) {
  User user = RequireUser(email);
  users_.SetUserActive(user.id, active);
  InvalidateUser(user.id);
  Audit(active ? "auth.user.activated" : "auth.user.deactivated", user.id, "", "", "",
        WithActor({{"email", user.email}}, actor_user_id));
}

std::string AuthService::SetPassword(const std::string& email, const std::string& password) {
  User user = RequireUser(email);
  std::string chosen = password.empty() ? NewOneTimePassword() : password;
  if (Utf8Length(chosen) < kMinPasswordChars) {
    throw DomainError(errc::kUserPasswordWeak, "the password must be at least 12 characters",
                      {{"min_length", kMinPasswordChars}});
  }
  users_.SetUserPasswordHash(user.id, hasher_.HashSecret(chosen));
  InvalidateUser(user.id);
  Audit("auth.user.password_reset", user.id, "", "", "", {{"email", user.email}});
  return password.empty() ? chosen : "";
}

void AuthService::ChangeOwnPassword(const Principal& principal, const std::string& current_password,
                                    const std::string& new_password) {
  if (!principal.via_session) {
    throw DomainError(errc::kSessionRequired,
                      "Changing a password mints an interactive credential: sign in; an API key "
                      "cannot do it (auth.md 5A.7).");
  }
  auto user = users_.FindUserById(principal.user_id);
  if (!user || !hasher_.VerifySecret(user->password_hash, current_password)) {
    throw DomainError(errc::kLoginInvalid, "The current password is not correct.",
                      {{"field", "current_password"}});
  }
  if (Utf8Length(new_password) < kMinPasswordChars) {
    throw DomainError(errc::kUserPasswordWeak, "the password must be at least 12 characters",
                      {{"min_length", kMinPasswordChars}});
  }
  users_.SetUserPasswordHash(user->id, hasher_.HashSecret(new_password));
  // Every OTHER session ends (a stolen cookie dies with the old password); this one stays, and
  // API keys are untouched (auth.md: a key is revoked, never implicitly). InvalidateUser drops
  // the cached sessions, so this instance refuses the ended ones at once.
  const int64_t ended =
      credentials_.DeleteOtherSessionsOfUser(user->id, principal.session_token_hash);
  InvalidateUser(user->id);
  Audit("auth.user.password_changed", user->id, principal.key_id, "", "",
        Json{{"other_sessions_ended", ended}});
}

Workspace AuthService::CreateWorkspace(const std::string& name, const std::string& display_name,
                                       const std::string& created_by_email) {
  if (!IsValidWorkspaceName(name)) {
    throw DomainError(errc::kWorkspaceNameInvalid,
                      "workspace names are 1 to 63 characters of [a-z0-9_-]", {{"name", name}});
  }
  std::string created_by;
  if (!created_by_email.empty()) created_by = RequireUser(created_by_email).id;
  auto duplicate = [&] {
    return DomainError(errc::kWorkspaceDuplicateName, "a workspace with this name already exists",
                       {{"name", name}});
  };
  if (workspaces_.FindWorkspaceByName(name)) throw duplicate();
  Workspace workspace{NewUuid(), name, display_name.empty() ? name : display_name, created_by,
                      Now()};
  try {
    workspaces_.InsertWorkspace(workspace);
  } catch (const DuplicateKeyError&) {
    throw duplicate();
  }
  Audit("workspace.created", created_by, "", workspace.id, "", {{"name", name}});
  // The creator owns it: a member with ws_admin, as `workspaces create --owner-email` says.
  if (!created_by_email.empty()) SetMembership(workspace.name, created_by_email, Role::kWsAdmin);
  return workspace;
}

void AuthService::SetMembership(const std::string& workspace_name, const std::string& email,
                                Role role) {
  Workspace workspace = RequireWorkspace(workspace_name);
  User user = RequireUser(email);
  auto existing = workspaces_.FindMembership(workspace.id, user.id);
  workspaces_.UpsertMembership(
      Membership{workspace.id, user.id, role, existing ? existing->joined_at_ms : Now()});
  // A demotion through this instance applies to its cached keys and sessions at once.
  InvalidateUser(user.id);
  Json details = {{"email", user.email}, {"role", ToString(role)}};
  if (existing) details["previous_role"] = ToString(existing->role);
  Audit("workspace.member.set", user.id, "", workspace.id, "", std::move(details));
}

bool AuthService::RemoveMembership(const std::string& workspace_name, const std::string& email) {
  Workspace workspace = RequireWorkspace(workspace_name);
  User user = RequireUser(email);
  if (!workspaces_.DeleteMembership(workspace.id, user.id)) return false;
  InvalidateUser(user.id);
  Audit("workspace.member.removed", user.id, "", workspace.id, "", {{"email", user.email}});
  return true;
}

IssuedApiKey AuthService::CreateApiKeyFor(const std::string& email,
                                          const std::string& workspace_name,
                                          const std::string& name, Scope scope, KeyKind kind,
                                          std::optional<int64_t> expires_at_ms) {
  User user = RequireUser(email);
  if (!user.is_active) throw DomainError(errc::kLoginUserInactive, "this account is deactivated");
  Workspace workspace = RequireWorkspace(workspace_name);
  return IssueKey(user, workspace, std::nullopt,
                  CreateApiKeyRequest{name, scope, kind, workspace_name, expires_at_ms}, "operator",
                  false);
}

void AuthService::RevokeApiKeyById(const std::string& key_id) {
  auto key = credentials_.FindApiKey(key_id);
  if (!key) throw DomainError(errc::kApiKeyNotFound, "no such API key", {{"id", key_id}});
  RevokeAndAudit(*key, "");
}

std::vector<User> AuthService::ListUsers() {
  std::vector<User> users = users_.ListUsers();
  for (auto& user : users) user.password_hash.clear();
  return users;
}

std::vector<Workspace> AuthService::ListWorkspaces() { return workspaces_.ListWorkspaces(); }

std::vector<MemberInfo> AuthService::ListMembers(const std::string& workspace_name) {
  Workspace workspace = RequireWorkspace(workspace_name);
  std::vector<MemberInfo> members;
  for (const Membership& m : workspaces_.ListMembers(workspace.id)) {
    auto user = users_.FindUserById(m.user_id);
    members.push_back(MemberInfo{m.user_id, user ? user->email : "", user ? user->display_name : "",
                                 m.role, m.joined_at_ms});
  }
  return members;
}

std::vector<ApiKeyRecord> AuthService::ListAllKeys() {
  std::vector<ApiKeyRecord> keys = credentials_.ListApiKeys();
  for (auto& key : keys) {
    key.key_hash.clear();
    key.key_check.clear();
  }
  return keys;
}

BootstrapResult AuthService::Bootstrap(const BootstrapRequest& given) {
  BootstrapRequest request = given;
  if (request.workspace_name.empty()) request.workspace_name = "default";
  if (request.key_name.empty()) request.key_name = "bootstrap";
  BootstrapResult result;
  const std::string email = NormalizeEmail(request.admin_email);
  auto user = users_.FindUserByEmail(email);
  if (!user) {
    std::string password = request.admin_password;
    if (password.empty()) password = result.generated_password = Base64Url(RandomBytes(18));
    user = CreateUser(email, "Administrator", password, true);
    result.created_user = true;
  }
  result.user_id = user->id;
  auto workspace = workspaces_.FindWorkspaceByName(request.workspace_name);
  if (!workspace) {
    workspace = CreateWorkspace(request.workspace_name, request.workspace_name, email);
    result.created_workspace = true;
    result.created_membership = true;  // the creator is its ws_admin
  }
  result.workspace_id = workspace->id;
  if (!workspaces_.FindMembership(workspace->id, user->id)) {
    SetMembership(workspace->name, email, Role::kWsAdmin);
    result.created_membership = true;
  }
  const int64_t now = Now();
  auto keys = credentials_.ListApiKeysOfUser(user->id);
  const bool has_key = std::any_of(keys.begin(), keys.end(), [&](const ApiKeyRecord& key) {
    return key.workspace_id == workspace->id && !key.is_revoked && key.kind == KeyKind::kUser &&
           key.scope == Scope::kAuthor && !IsExpired(key.expires_at_ms, now);
  });
  if (!has_key) {
    result.key = IssueKey(*user, *workspace, std::nullopt,
                          CreateApiKeyRequest{request.key_name, Scope::kAuthor, KeyKind::kUser,
                                              workspace->name, std::nullopt},
                          "operator", false);
    result.created_key = true;
  }
  Audit("auth.bootstrap", user->id, result.key ? result.key->record.id : "", workspace->id, "",
        {{"created_user", result.created_user},
         {"created_workspace", result.created_workspace},
         {"created_membership", result.created_membership},
         {"created_key", result.created_key}});
  return result;
}

// ---------------------------------------------------------------------------------------------
// Helpers

std::optional<Role> AuthService::CurrentRole(const std::string& workspace_id,
                                             const std::string& user_id) {
  if (workspace_id.empty()) return std::nullopt;
  auto membership = workspaces_.FindMembership(workspace_id, user_id);
  if (!membership) return std::nullopt;
  return membership->role;
}

void AuthService::InvalidateUser(const std::string& user_id) {
  key_cache_.EraseIf([&](const KeyEntry& entry) { return entry.user.id == user_id; });
  session_cache_.EraseIf([&](const SessionEntry& entry) { return entry.user.id == user_id; });
}

User AuthService::RequireUser(const std::string& email) {
  const std::string normalized = NormalizeEmail(email);
  auto user = users_.FindUserByEmail(normalized);
  if (!user) throw DomainError(errc::kUserNotFound, "no such user", {{"email", normalized}});
  return *user;
}

Workspace AuthService::RequireWorkspace(const std::string& name) {
  auto workspace = workspaces_.FindWorkspaceByName(name);
  if (!workspace) {
    throw DomainError(errc::kWorkspaceNotFound, "no such workspace", {{"workspace", name}});
  }
  return *workspace;
}

std::string AuthService::DummyHash() {
  std::call_once(dummy_once_, [this] { dummy_hash_ = hasher_.HashSecret(RandomBytes(16)); });
  return dummy_hash_;
}

void AuthService::Audit(std::string event, const std::string& user_id, const std::string& key_id,
                        const std::string& workspace_id, std::string_view source_ip, Json details) {
  AuditEvent record;
  record.timestamp_ms = Now();
  record.event = std::move(event);
  record.user_id = user_id;
  record.key_id = key_id;
  record.workspace_id = workspace_id;
  record.source_ip = std::string(source_ip);
  record.details = std::move(details);
  audit_.Record(std::move(record));
}

}  // namespace dp
