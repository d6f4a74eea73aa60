#pragma once
// What the three auth services (Authenticator, ApiKeyService, AccountAdministration) share:
// the stores they read, the secret hasher, the clock and the audit sink, with the lookups each
// of them makes. Thread-safe as its parts are; every method blocks on the store.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/service/identity/secret_hasher.hpp"
#include "datapipelines/store/credential_store.hpp"
#include "datapipelines/store/user_store.hpp"
#include "datapipelines/store/workspace_store.hpp"
#include "datapipelines/util/crypto.hpp"  // Base64Url, which the auth services mint tokens with
#include "datapipelines/util/json.hpp"

namespace dp {

class AuthRecords {
 public:
  // clock: epoch ms; empty = NowMs.
  AuthRecords(UserStore& users, WorkspaceStore& workspaces, CredentialStore& credentials,
              AuditLog& audit, Argon2Params hasher, std::function<int64_t()> clock);

  UserStore& users() const { return users_; }
  WorkspaceStore& workspaces() const { return workspaces_; }
  CredentialStore& credentials() const { return credentials_; }
  AuditLog& audit_log() const { return audit_; }
  const SecretHasher& hasher() const { return hasher_; }

  int64_t Now() const;
  // user.not_found / workspace.not_found when absent; the email is normalized first.
  User RequireUser(const std::string& email) const;
  Workspace RequireWorkspace(const std::string& name) const;
  // The user's membership flags in the workspace; nullopt for no membership or no workspace.
  std::optional<MemberFlags> CurrentFlags(const std::string& workspace_id,
                                          const std::string& user_id) const;
  void Audit(std::string event, const std::string& user_id, const std::string& key_id,
             const std::string& workspace_id, std::string_view source_ip, Json details) const;

 private:
  UserStore& users_;
  WorkspaceStore& workspaces_;
  CredentialStore& credentials_;
  AuditLog& audit_;
  SecretHasher hasher_;
  std::function<int64_t()> clock_;
};

// Records as they leave the auth services: no password hash, no key hash or pre-check.
User WithoutSecret(User user);
ApiKeyRecord WithoutSecret(ApiKeyRecord key);
bool IsExpired(const std::optional<int64_t>& expires_at_ms, int64_t now_ms);

}  // namespace dp
