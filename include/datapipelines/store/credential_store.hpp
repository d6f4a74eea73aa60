#pragma once
// The credential port (metadata-db §4.6–4.7): API key records and human sessions. Neither
// holds a secret: keys are stored as their Argon2id hash, sessions as their token's SHA-256.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/domain/access.hpp"

namespace dp {

class SqlExecutor;

struct ApiKeyRecord {
  std::string id;  // "dpk_<12 base32>"
  std::string user_id;
  std::string workspace_id;
  std::string name;
  KeyKind kind = KeyKind::kUser;
  Scope scope = Scope::kRead;
  std::string key_hash;  // Argon2id hash of the full key
  bool is_revoked = false;
  int64_t created_at_ms = 0;
  std::optional<int64_t> expires_at_ms;
  std::optional<int64_t> last_used_at_ms;
  std::string key_check;  // fast pre-check of the full key (Authenticator); "" = not yet set
  // The credential that minted it: "session", "operator" (CLI, bootstrap) or the minting key's
  // id; "" = issued before migration 0010 recorded it.
  std::string minted_by;
};

struct Session {
  std::string token_hash;  // SHA-256 hex of the cookie value; the token itself is never stored
  std::string user_id;
  std::string workspace_id;  // active workspace; may be empty
  int64_t created_at_ms = 0;
  int64_t expires_at_ms = 0;
  // Which credential opened it (RFC 8176): "pwd" (a local password) or "oidc" (an identity
  // provider). Only a password-opened session is held at the forced password change.
  std::string amr = "pwd";
};

class CredentialStore {
 public:
  virtual ~CredentialStore() = default;

  // API keys
  virtual void InsertApiKey(const ApiKeyRecord& key) = 0;
  virtual std::optional<ApiKeyRecord> FindApiKey(const std::string& id) = 0;
  virtual std::vector<ApiKeyRecord> ListApiKeysOfUser(const std::string& user_id) = 0;
  virtual std::vector<ApiKeyRecord> ListApiKeys() = 0;
  virtual bool RevokeApiKey(const std::string& id) = 0;  // false when unknown
  // Monotonic: a late writer never moves the stamp backwards.
  virtual void TouchApiKey(const std::string& id, int64_t used_at_ms) = 0;
  // Back-fills the pre-check of a key issued before it existed (no-op once set).
  virtual void SetApiKeyCheck(const std::string& id, const std::string& key_check) = 0;

  // sessions (humans, dp_session cookie)
  virtual void InsertSession(const Session& session) = 0;
  virtual std::optional<Session> FindSession(const std::string& token_hash) = 0;
  virtual void DeleteSession(const std::string& token_hash) = 0;
  // Ends every session of the user but `keep_token_hash`'s; the number ended.
  virtual int64_t DeleteOtherSessionsOfUser(const std::string& user_id,
                                            const std::string& keep_token_hash) = 0;
};

// The SQL adapter, written once in the portable subset for both backends.
std::unique_ptr<CredentialStore> OpenCredentialStore(SqlExecutor& sql);

}  // namespace dp
