#include "datapipelines/service/identity/authenticator.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <tuple>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/limits/memory_throttle_store.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/identity/account_rules.hpp"
#include "datapipelines/service/identity/api_key_format.hpp"
#include "datapipelines/service/identity/invitations.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

// One message for every invalid-key reason: the caller learns nothing about which check failed.
constexpr const char* kInvalidKeyMessage =
    "the API key is invalid: unknown, revoked, or its owner is deactivated";
constexpr const char* kInvalidLoginMessage = "invalid email or password";

Scope SessionScope(bool super_admin, const std::optional<MemberFlags>& membership) {
  if (super_admin) return Scope::kAuthor;
  return membership ? MaxScopeFor(*membership) : Scope::kRead;
}

// Who the credential's owner is, in the workspace it acts in; the credential adds the rest.
Principal UserPrincipal(const User& user, const std::string& workspace_id,
                        const std::string& workspace_name,
                        const std::optional<MemberFlags>& membership) {
  Principal principal;
  principal.user_id = user.id;
  principal.email = user.email;
  principal.display_name = user.display_name;
  principal.workspace_id = workspace_id;
  principal.workspace_name = workspace_name;
  principal.membership = membership;
  principal.super_admin = user.is_super_admin;
  // A super admin is an implicit member of every workspace, holding every flag.
  if (user.is_super_admin && !membership && !workspace_id.empty()) {
    principal.membership = MemberFlags{true, true, true};
    principal.acting_as_super_admin = true;
  }
  return principal;
}

// The check every presented key is compared with when its id is unknown: same length and
// the same constant-time compare as a real one, matching no token.
const std::string& DummyKeyCheck() {
  static const std::string kDummy(64, '0');
  return kDummy;
}

}  // namespace

Authenticator::Authenticator(const AuthRecords& records, AuthenticatorOptions options)
    : records_(records),
      options_(std::move(options)),
      throttle_store_(options_.throttle_store ? options_.throttle_store
                                              : std::make_shared<MemoryThrottleStore>()),
      login_throttle_(options_.login_throttle, *throttle_store_),
      argon_per_key_(options_.argon2_per_key_per_minute, *throttle_store_, "argon2:key"),
      argon_per_address_(options_.argon2_per_address_per_minute, *throttle_store_,
                         "argon2:address"),
      key_cache_(options_.cache_ttl.count(), options_.cache_max_entries),
      session_cache_(options_.cache_ttl.count(), options_.cache_max_entries) {}

// ---------------------------------------------------------------------------------------------
// API keys (auth.md §7.3)

Principal Authenticator::AuthenticateApiKey(std::string_view token, std::string_view source_ip) {
  auto parsed = ParseApiKey(token);
  if (!parsed) RejectKey("", source_ip, "malformed", false);
  // Keyed by a digest of the whole token: a hit proves the caller holds the verified secret.
  const std::string cache_key = Sha256Hex(parsed->full);
  const uint64_t generation = key_cache_.generation();
  auto hit = key_cache_.Lookup(cache_key, records_.Now());
  if (hit && hit->fresh) return KeyPrincipal(hit->value, source_ip);

  std::optional<KeyEntry> stale;
  if (hit) stale = std::move(hit->value);
  KeyEntry entry = LoadKeyEntry(parsed->id, parsed->full, stale, source_ip);
  key_cache_.Put(cache_key, entry, records_.Now(), generation);
  Principal principal = KeyPrincipal(entry, source_ip);
  // Once per cache refresh, not per request: last_used is informational.
  try {
    records_.credentials().TouchApiKey(entry.key.id, records_.Now());
  } catch (const std::exception& e) {
    spdlog::warn("could not record last use of API key {}: {}", entry.key.id, e.what());
  }
  return principal;
}

std::optional<Principal> Authenticator::CachedApiKeyPrincipal(std::string_view token) const {
  auto parsed = ParseApiKey(token);
  if (!parsed) return std::nullopt;
  const int64_t now = records_.Now();
  auto hit = key_cache_.Lookup(Sha256Hex(parsed->full), now);
  if (!hit || !hit->fresh) return std::nullopt;
  const KeyEntry& entry = hit->value;
  if (IsExpired(entry.key.expires_at_ms, now) || !entry.user.is_active || !entry.workspace_active) {
    return std::nullopt;
  }
  return PrincipalOf(entry);
}

Authenticator::KeyEntry Authenticator::LoadKeyEntry(const std::string& key_id,
                                                    const std::string& full_token,
                                                    const std::optional<KeyEntry>& stale,
                                                    std::string_view source_ip) {
  auto record = records_.credentials().FindApiKey(key_id);
  // One HMAC and one constant-time compare whatever the id: an unknown id, a revoked key and a
  // wrong secret cost the same and none of them reaches Argon2 (issue 9).
  const std::string presented = ApiKeyCheck(full_token);
  const bool has_check = record && !record->key_check.empty();
  const bool check_ok =
      ConstantTimeEquals(has_check ? record->key_check : DummyKeyCheck(), presented);
  if (!record) RejectKey(key_id, source_ip, "unknown", false);
  if (has_check && !check_ok) RejectKey(key_id, source_ip, "hash_mismatch", false);
  if (record->is_revoked) RejectKey(key_id, source_ip, "revoked", false);
  if (IsExpired(record->expires_at_ms, records_.Now())) {
    RejectKey(key_id, source_ip, "expired", true);
  }
  // Argon2 runs once per token: a refresh against an unchanged hash reuses the verification.
  const bool verified = stale && stale->key.key_hash == record->key_hash;
  if (!verified) {
    VerifyWithArgon2(*record, full_token, source_ip);
    if (!has_check) {
      try {
        records_.credentials().SetApiKeyCheck(record->id, presented);
      } catch (const std::exception& e) {
        spdlog::warn("could not back-fill the pre-check of API key {}: {}", record->id, e.what());
      }
    }
  }
  auto user = records_.users().FindUserById(record->user_id);
  if (!user) RejectKey(key_id, source_ip, "owner_unknown", false);
  KeyEntry entry{std::move(*record), WithoutSecret(std::move(*user)), "", std::nullopt};
  if (!entry.key.workspace_id.empty()) {
    auto workspace = records_.workspaces().FindWorkspaceById(entry.key.workspace_id);
    if (!workspace) RejectKey(key_id, source_ip, "workspace_unknown", false);
    entry.workspace_name = workspace->name;
    entry.workspace_active = workspace->active();
    entry.membership = records_.CurrentFlags(entry.key.workspace_id, entry.user.id);
  }
  return entry;
}

void Authenticator::VerifyWithArgon2(const ApiKeyRecord& record, const std::string& full_token,
                                     std::string_view source_ip) {
  // Bounded per key id and per address: a key issued before its pre-check existed is the one
  // path a wrong secret can still spend Argon2 on.
  for (auto* window : {&argon_per_key_, &argon_per_address_}) {
    auto verdict = window->Take(window == &argon_per_key_ ? record.id : std::string(source_ip),
                                records_.Now());
    if (!verdict.allowed) {
      throw DomainError(errc::kRateLimitExceeded,
                        "Too many API key verifications; retry after the window.",
                        Json{{"retry_after_seconds", verdict.retry_after_seconds}});
    }
  }
  if (!records_.hasher().VerifySecret(record.key_hash, full_token)) {
    RejectKey(record.id, source_ip, "hash_mismatch", false);
  }
}

Principal Authenticator::KeyPrincipal(const KeyEntry& entry, std::string_view source_ip) {
  if (IsExpired(entry.key.expires_at_ms, records_.Now())) {
    RejectKey(entry.key.id, source_ip, "expired", true);
  }
  if (!entry.user.is_active) RejectKey(entry.key.id, source_ip, "owner_inactive", false);
  if (!entry.workspace_active) {
    // Not-found like every other surface of a deactivated workspace; reactivating it restores
    // the key (auth.md §11A.3).
    throw DomainError(errc::kKeyWorkspaceInactive,
                      "This key's workspace is deactivated: reactivating it restores the key.",
                      Json{{"workspace", entry.workspace_name}});
  }
  return PrincipalOf(entry);
}

Principal Authenticator::PrincipalOf(const KeyEntry& entry) {
  Principal principal =
      UserPrincipal(entry.user, entry.key.workspace_id, entry.workspace_name, entry.membership);
  principal.key_id = entry.key.id;
  principal.scope = entry.key.scope;
  principal.kind = entry.key.kind;
  principal.via_session = false;
  return principal;
}

void Authenticator::RejectKey(const std::string& key_id, std::string_view source_ip,
                              std::string_view reason, bool expired) {
  // The key id is the public half; the secret never reaches the audit row. Anyone can repeat
  // a refusal, so repeats from one address are aggregated instead of a row each.
  AuditEvent row;
  row.timestamp_ms = records_.Now();
  row.event = "auth.api_key.rejected";
  row.key_id = key_id;
  row.source_ip = std::string(source_ip);
  row.details = {{"reason", reason}};
  records_.audit_log().RecordRepeatable(std::move(row), source_ip);
  if (expired) throw DomainError(errc::kApiKeyExpired, "the API key has expired");
  throw DomainError(errc::kApiKeyInvalid, kInvalidKeyMessage);
}

std::string Authenticator::ApiKeyCheck(std::string_view full_token) {
  // The secret half carries 240 random bits, so a fixed label (domain separation) is the
  // whole key: nothing shared between instances or the operator CLI is needed.
  return Sha256Hex(HmacSha256("datapipelines api key check v1", full_token));
}

// ---------------------------------------------------------------------------------------------
// Sessions and login

Principal Authenticator::AuthenticateSession(std::string_view cookie_token) {
  if (cookie_token.empty()) throw DomainError(errc::kSessionInvalid, "the session is invalid");
  const std::string token_hash = Sha256Hex(cookie_token);
  const uint64_t generation = session_cache_.generation();
  auto hit = session_cache_.Lookup(token_hash, records_.Now());
  if (hit && hit->fresh) return SessionPrincipal(hit->value);
  SessionEntry entry = LoadSessionEntry(token_hash);
  session_cache_.Put(token_hash, entry, records_.Now(), generation);
  return SessionPrincipal(entry);
}

Authenticator::SessionEntry Authenticator::LoadSessionEntry(const std::string& token_hash) {
  auto session = records_.credentials().FindSession(token_hash);
  if (!session) throw DomainError(errc::kSessionInvalid, "the session is invalid");
  auto user = records_.users().FindUserById(session->user_id);
  if (!user) throw DomainError(errc::kSessionInvalid, "the session is invalid");
  SessionEntry entry{std::move(*session), WithoutSecret(std::move(*user)), "", std::nullopt};
  if (!entry.session.workspace_id.empty()) {
    auto workspace = records_.workspaces().FindWorkspaceById(entry.session.workspace_id);
    // A deactivated workspace cannot be selected (auth.md §11A.3), by a super admin either.
    if (workspace && workspace->active()) {
      entry.workspace_name = workspace->name;
      entry.membership = records_.CurrentFlags(workspace->id, entry.user.id);
    } else {
      entry.session.workspace_id.clear();
    }
  }
  return entry;
}

Principal Authenticator::SessionPrincipal(const SessionEntry& entry) {
  if (entry.session.expires_at_ms <= records_.Now()) {
    throw DomainError(errc::kSessionExpired, "the session has expired; log in again");
  }
  if (!entry.user.is_active) throw DomainError(errc::kSessionInvalid, "the session is invalid");
  Principal principal =
      UserPrincipal(entry.user, entry.session.workspace_id, entry.workspace_name, entry.membership);
  principal.scope = SessionScope(principal.super_admin, principal.membership);
  principal.kind = KeyKind::kUser;
  principal.via_session = true;
  principal.session_token_hash = entry.session.token_hash;
  // Signing in through an identity provider proved no password, so asks for none.
  principal.password_change_required =
      entry.user.must_change_password && entry.session.amr != "oidc";
  return principal;
}

LoginResult Authenticator::Login(std::string_view email, std::string_view password,
                                 std::string_view source_ip) {
  if (!options_.local_accounts_enabled) {
    throw DomainError(errc::kLoginLocalDisabled,
                      "Password sign-in is turned off on this server: sign in through your "
                      "identity provider.");
  }
  const std::string normalized = NormalizeEmail(email).substr(0, 254);
  TakeLoginAttempt(normalized, source_ip);
  auto user = records_.users().FindUserByEmail(normalized);
  bool verified = false;
  if (user && !user->password_hash.empty()) {
    verified = records_.hasher().VerifySecret(user->password_hash, password);
  } else {
    // Same Argon2 cost whether or not the account exists: timing does not reveal emails.
    records_.hasher().VerifySecret(DummyHash(), password);
  }
  if (!verified) RecordLoginFailure(normalized, user, source_ip);
  login_throttle_.RecordSuccess(normalized);
  if (!user->is_active) {
    records_.Audit("auth.login.user_inactive", user->id, "", "", source_ip,
                   {{"email", normalized}});
    throw DomainError(errc::kLoginUserInactive, "this account is deactivated");
  }
  return OpenSession(*user, source_ip, "local");
}

LoginResult Authenticator::OpenSession(const User& user, std::string_view source_ip,
                                       std::string_view provider) {
  // Both ways of signing in reach here, so this is where invitations become memberships.
  MaterializeInvitations(records_, user);
  auto memberships = records_.workspaces().ListMembershipsOfUser(user.id);
  std::sort(memberships.begin(), memberships.end(), [](const auto& a, const auto& b) {
    return std::tie(a.joined_at_ms, a.workspace_id) < std::tie(b.joined_at_ms, b.workspace_id);
  });
  // The first membership whose workspace can be selected (a deactivated one cannot).
  std::erase_if(memberships, [&](const Membership& m) {
    auto workspace = records_.workspaces().FindWorkspaceById(m.workspace_id);
    return !workspace || !workspace->active();
  });
  const int64_t now = records_.Now();
  LoginResult result;
  result.token = Base64Url(RandomBytes(32));
  result.expires_at_ms = now + options_.session_ttl.count();
  Session session{Sha256Hex(result.token),
                  user.id,
                  memberships.empty() ? "" : memberships.front().workspace_id,
                  now,
                  result.expires_at_ms,
                  provider == "local" ? "pwd" : "oidc"};
  records_.credentials().InsertSession(session);
  const uint64_t generation = session_cache_.generation();
  SessionEntry entry = LoadSessionEntry(session.token_hash);
  session_cache_.Put(session.token_hash, entry, records_.Now(), generation);
  result.principal = SessionPrincipal(entry);
  records_.Audit("auth.login.success", user.id, "", session.workspace_id, source_ip,
                 {{"email", user.email}, {"provider", std::string(provider)}});
  return result;
}

void Authenticator::TakeLoginAttempt(const std::string& email, std::string_view source_ip) {
  // The dampers run before any lookup or Argon2 work (auth.md §5A.3, §9).
  const int64_t started = records_.Now();
  LoginThrottle::AddressVerdict address = login_throttle_.TakeAddressAttempt(source_ip, started);
  if (!address.allowed) {
    // One row per window, not one per refused attempt.
    if (address.first_refusal) {
      records_.Audit("auth.login.rate_limited", "", "", "", source_ip,
                     {{"limit_per_minute", options_.login_throttle.per_address_per_minute}});
    }
    throw DomainError(errc::kRateLimitExceeded,
                      "Too many login attempts from this address; retry after the window.",
                      Json{{"retry_after_seconds", address.retry_after_seconds}});
  }
  if (int64_t locked_ms = login_throttle_.LockedFor(email, started); locked_ms > 0) {
    throw DomainError(errc::kLoginLocked,
                      "This account is locked after repeated failed logins; retry later.",
                      Json{{"retry_after_seconds", (locked_ms + 999) / 1000}});
  }
}

void Authenticator::RecordLoginFailure(const std::string& email, const std::optional<User>& user,
                                       std::string_view source_ip) {
  const std::string user_id = user ? user->id : "";
  // Unknown email, OIDC-only account and wrong password are one event (auth.md §5A.5).
  records_.Audit("auth.login.bad_credentials", user_id, "", "", source_ip, {{"email", email}});
  // Unknown emails count too: whether an account locks must not reveal that it exists.
  if (login_throttle_.RecordFailure(email, records_.Now())) {
    records_.Audit("auth.login.locked", user_id, "", "", source_ip,
                   {{"email", email},
                    {"max_failures", options_.login_throttle.max_failures},
                    {"lock_seconds", options_.login_throttle.lock_ms / 1000}});
  }
  throw DomainError(errc::kLoginInvalid, kInvalidLoginMessage);
}

void Authenticator::VerifyOwnPassword(const User& user, std::string_view password,
                                      std::string_view source_ip) {
  const int64_t now = records_.Now();
  if (int64_t locked_ms = login_throttle_.LockedFor(user.email, now); locked_ms > 0) {
    records_.Audit("auth.password.change_locked", user.id, "", "", source_ip,
                   {{"email", user.email}});
    throw DomainError(errc::kLoginLocked,
                      "This account is locked after repeated failed attempts; retry later.",
                      Json{{"retry_after_seconds", (locked_ms + 999) / 1000}});
  }
  if (!user.password_hash.empty() && records_.hasher().VerifySecret(user.password_hash, password)) {
    login_throttle_.RecordSuccess(user.email);
    return;
  }
  records_.Audit("auth.password.change_failed", user.id, "", "", source_ip,
                 {{"email", user.email}});
  if (login_throttle_.RecordFailure(user.email, now)) {
    records_.Audit("auth.login.locked", user.id, "", "", source_ip,
                   {{"email", user.email},
                    {"max_failures", options_.login_throttle.max_failures},
                    {"lock_seconds", options_.login_throttle.lock_ms / 1000}});
  }
  throw DomainError(errc::kLoginInvalid, "The current password is not correct.",
                    {{"field", "current_password"}});
}

int64_t Authenticator::LockedForMs(const std::string& email) {
  return login_throttle_.LockedFor(NormalizeEmail(email), records_.Now());
}

void Authenticator::Unlock(const std::string& email) {
  login_throttle_.Unlock(NormalizeEmail(email));
}

std::string Authenticator::CsrfTokenFor(std::string_view session_token) {
  return Base64Url(HmacSha256(session_token, "datapipelines csrf v1"));
}

bool Authenticator::CsrfTokenMatches(std::string_view session_token, std::string_view presented) {
  return !session_token.empty() && ConstantTimeEquals(CsrfTokenFor(session_token), presented);
}

void Authenticator::Logout(std::string_view cookie_token) {
  if (cookie_token.empty()) return;
  const std::string token_hash = Sha256Hex(cookie_token);
  auto session = records_.credentials().FindSession(token_hash);
  records_.credentials().DeleteSession(token_hash);
  session_cache_.Erase(token_hash);
  if (session) {
    records_.Audit("auth.logout", session->user_id, "", session->workspace_id, "", Json::object());
  }
}

// ---------------------------------------------------------------------------------------------
// Invalidation

void Authenticator::ForgetKey(const std::string& key_id) {
  key_cache_.EraseIf([&](const KeyEntry& entry) { return entry.key.id == key_id; });
}

void Authenticator::ForgetUser(const std::string& user_id) {
  key_cache_.EraseIf([&](const KeyEntry& entry) { return entry.user.id == user_id; });
  session_cache_.EraseIf([&](const SessionEntry& entry) { return entry.user.id == user_id; });
}

void Authenticator::ForgetAll() {
  key_cache_.EraseIf([](const KeyEntry&) { return true; });
  session_cache_.EraseIf([](const SessionEntry&) { return true; });
}

const std::string& Authenticator::DummyHash() {
  std::call_once(dummy_once_,
                 [this] { dummy_hash_ = records_.hasher().HashSecret(RandomBytes(16)); });
  return dummy_hash_;
}

}  // namespace dp
