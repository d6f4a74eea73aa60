#pragma once
// API keys as credentials to manage (auth.md §7.4-§7.7, §11A.4): issuance by a signed-in
// person, a key or the operator shell, listing without hashes, and revocation, each audited.
// A revocation reaches the authenticator's cache at once. Thread-safe; every method blocks
// (store, Argon2): call from the blocking pool.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/service/identity/auth_records.hpp"
#include "datapipelines/service/identity/principal.hpp"

namespace dp {

class Authenticator;

struct CreateApiKeyRequest {
  std::string name;  // 1..100 characters
  Scope scope = Scope::kRead;
  KeyKind kind = KeyKind::kUser;
  std::string workspace_name;  // empty = the issuer's active (or pinned) workspace
  std::optional<int64_t> expires_at_ms;
};

// POST /api/v1/auth/api-keys as the service reads it (auth.md §7.5, §7.7): the key with its
// defaults, the endpoint nodes to bind it to, and whether the caller stated a scope at all (a
// scopeless kind stating one is refused by EndpointService::IssueKey).
struct ApiKeyIssueRequest {
  CreateApiKeyRequest key;
  std::vector<std::string> bindings;
  bool scope_stated = false;

  // {name, scope? (default read), kind? (default user), bindings? [path], workspace? (default
  // the issuer's), expires_at? ISO-8601 UTC}: request.validation.invalid naming the field
  // (auth.key_scope_unavailable for scope admin), checked in that order.
  static ApiKeyIssueRequest FromJson(const Json& body);
};

struct IssuedApiKey {
  ApiKeyRecord record;  // key_hash cleared
  std::string workspace_name;
  std::string plaintext;  // shown once
};

class ApiKeyService {
 public:
  ApiKeyService(const AuthRecords& records, Authenticator& authenticator);

  // The issuer holds `author` in the pinned workspace (a super admin anywhere), the scope is at
  // most the issuer's capability (and a key's own scope), an endpoint key needs `author` on
  // both axes, and a `server` key is minted by a super admin's session only. The record names
  // the minting credential (ApiKeyRecord::minted_by).
  IssuedApiKey CreateApiKey(const Principal& issuer, const CreateApiKeyRequest& request);
  // The same issuance where no endpoint service is wired (EndpointService::IssueKey is the one
  // that binds): a request naming bindings is request.validation.invalid {field: bindings}.
  IssuedApiKey CreateApiKey(const Principal& issuer, const ApiKeyIssueRequest& request);
  std::vector<ApiKeyRecord> ListApiKeys(const Principal& principal);  // own keys, no hashes
  // Own keys; a ws_admin any key pinned to their workspace; a super admin any key. A key
  // revokes only inside its own workspace and only keys no wider than itself (auth.md §7.6):
  // a `read` key cannot revoke its owner's `author` key, and no key revokes a `server` key.
  void RevokeApiKey(const Principal& principal, const std::string& key_id);
  // The requested scope's wire spelling: `admin` is auth.key_scope_unavailable (auth.md §7.5),
  // anything else unknown is request.validation.invalid.
  static Scope ParseRequestedScope(std::string_view text);

  // --- operator verbs (the CLI, or a super admin over REST) -------------------------------
  // Revokes every live key of the user; returns the ids revoked. actor_user_id "" = the
  // operator shell.
  std::vector<std::string> RevokeAllKeysOf(const std::string& email,
                                           const std::string& actor_user_id);
  // For any member, capped by the owner's role (no author floor: the shell is the operator).
  IssuedApiKey CreateApiKeyFor(const std::string& email, const std::string& workspace_name,
                               const std::string& name, Scope scope, KeyKind kind,
                               std::optional<int64_t> expires_at_ms);
  // The same issuance for a user and workspace already in hand (bootstrap).
  IssuedApiKey IssueOperatorKey(const User& owner, const Workspace& workspace,
                                const CreateApiKeyRequest& request);
  void RevokeApiKeyById(const std::string& key_id);
  std::vector<ApiKeyRecord> ListAllKeys();  // key hashes cleared

 private:
  // require_author: the self-service rule (§11A.4); the operator CLI mints for any member,
  // capped by the owner's role.
  IssuedApiKey IssueKey(const User& issuer, const Workspace& workspace,
                        std::optional<Scope> issuer_scope_cap, const CreateApiKeyRequest& request,
                        const std::string& minted_by, bool require_author);
  Scope IssuableScope(const User& issuer, const Workspace& workspace,
                      std::optional<Scope> issuer_scope_cap, bool require_author);
  void RequireRevocableBy(const Principal& principal, const ApiKeyRecord& key);
  void RevokeAndAudit(const ApiKeyRecord& key, const std::string& actor_user_id);

  const AuthRecords& records_;
  Authenticator& authenticator_;
};

}  // namespace dp
