// API keys and sessions (migrations 0001, 0010), written once in the portable SQL subset.
#include "datapipelines/store/credential_store.hpp"

#include <memory>
#include <optional>
#include <string>

#include "datapipelines/store/sql_executor.hpp"
#include "sql_cells.hpp"

namespace dp {
namespace {

using sql_cells::All;
using sql_cells::Bool;
using sql_cells::First;
using sql_cells::Int;
using sql_cells::NullIfEmpty;
using sql_cells::Select;
using sql_cells::Text;

constexpr const char* kApiKeyColumns =
    "id, user_id, workspace_id, name, kind, scope, key_hash, is_revoked, created_at_ms, "
    "expires_at_ms, last_used_at_ms, key_check, minted_by";
constexpr const char* kSessionColumns =
    "token_hash, user_id, workspace_id, created_at_ms, expires_at_ms, amr";

// Optional ids are NULL in the database (foreign keys) and "" in the structs.
SqlValue OptionalInt(const std::optional<int64_t>& value) {
  if (!value) return nullptr;
  return *value;
}

std::optional<int64_t> MaybeInt(const SqlRow& row, std::size_t i) {
  if (!row.at(i)) return std::nullopt;
  return Int(row, i);
}

ApiKeyRecord ToApiKey(const SqlRow& r) {
  ApiKeyRecord key;
  key.id = Text(r, 0);
  key.user_id = Text(r, 1);
  key.workspace_id = Text(r, 2);
  key.name = Text(r, 3);
  key.kind = ParseKeyKind(Text(r, 4)).value_or(KeyKind::kUser);
  key.scope = ParseScope(Text(r, 5)).value_or(Scope::kRead);
  key.key_hash = Text(r, 6);
  key.is_revoked = Int(r, 7) != 0;
  key.created_at_ms = Int(r, 8);
  key.expires_at_ms = MaybeInt(r, 9);
  key.last_used_at_ms = MaybeInt(r, 10);
  key.key_check = Text(r, 11);
  key.minted_by = Text(r, 12);
  return key;
}

Session ToSession(const SqlRow& r) {
  return Session{Text(r, 0), Text(r, 1), Text(r, 2), Int(r, 3), Int(r, 4), Text(r, 5)};
}

class SqlCredentialStore final : public CredentialStore {
 public:
  explicit SqlCredentialStore(SqlExecutor& sql) : sql_(sql) {}

  void InsertApiKey(const ApiKeyRecord& key) override;
  std::optional<ApiKeyRecord> FindApiKey(const std::string& id) override;
  std::vector<ApiKeyRecord> ListApiKeysOfUser(const std::string& user_id) override;
  std::vector<ApiKeyRecord> ListApiKeys() override;
  bool RevokeApiKey(const std::string& id) override;
  void TouchApiKey(const std::string& id, int64_t used_at_ms) override;
  void SetApiKeyCheck(const std::string& id, const std::string& key_check) override;
  void InsertSession(const Session& session) override;
  std::optional<Session> FindSession(const std::string& token_hash) override;
  void DeleteSession(const std::string& token_hash) override;
  int64_t DeleteOtherSessionsOfUser(const std::string& user_id,
                                    const std::string& keep_token_hash) override;

 private:
  SqlExecutor& sql_;
};

// ---- API keys

void SqlCredentialStore::InsertApiKey(const ApiKeyRecord& k) {
  sql_.Execute(
      std::string("INSERT INTO api_keys (") + kApiKeyColumns +
          ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
      {k.id, k.user_id, NullIfEmpty(k.workspace_id), k.name, std::string(ToString(k.kind)),
       std::string(ToString(k.scope)), k.key_hash, Bool(k.is_revoked), k.created_at_ms,
       OptionalInt(k.expires_at_ms), OptionalInt(k.last_used_at_ms), k.key_check, k.minted_by});
}

std::optional<ApiKeyRecord> SqlCredentialStore::FindApiKey(const std::string& id) {
  return First(sql_.Query(Select(kApiKeyColumns, "FROM api_keys WHERE id = $1"), {id}), &ToApiKey);
}

std::vector<ApiKeyRecord> SqlCredentialStore::ListApiKeysOfUser(const std::string& user_id) {
  return All(sql_.Query(Select(kApiKeyColumns,
                               "FROM api_keys WHERE user_id = $1 ORDER BY created_at_ms, id"),
                        {user_id}),
             &ToApiKey);
}

std::vector<ApiKeyRecord> SqlCredentialStore::ListApiKeys() {
  return All(sql_.Query(Select(kApiKeyColumns, "FROM api_keys ORDER BY created_at_ms, id"), {}),
             &ToApiKey);
}

bool SqlCredentialStore::RevokeApiKey(const std::string& id) {
  return sql_.Execute("UPDATE api_keys SET is_revoked = 1 WHERE id = $1", {id}) > 0;
}

void SqlCredentialStore::SetApiKeyCheck(const std::string& id, const std::string& key_check) {
  sql_.Execute("UPDATE api_keys SET key_check = $2 WHERE id = $1 AND key_check = ''",
               {id, key_check});
}

void SqlCredentialStore::TouchApiKey(const std::string& id, int64_t used_at_ms) {
  // Monotonic: a late writer from another thread never moves the stamp backwards.
  sql_.Execute(
      "UPDATE api_keys SET last_used_at_ms = $2 "
      "WHERE id = $1 AND (last_used_at_ms IS NULL OR last_used_at_ms < $2)",
      {id, used_at_ms});
}

// ---- sessions

void SqlCredentialStore::InsertSession(const Session& s) {
  sql_.Execute(
      std::string("INSERT INTO sessions (") + kSessionColumns +
          ") VALUES ($1, $2, $3, $4, $5, $6)",
      {s.token_hash, s.user_id, NullIfEmpty(s.workspace_id), s.created_at_ms, s.expires_at_ms,
       s.amr.empty() ? "pwd" : s.amr});
}

std::optional<Session> SqlCredentialStore::FindSession(const std::string& token_hash) {
  return First(
      sql_.Query(Select(kSessionColumns, "FROM sessions WHERE token_hash = $1"), {token_hash}),
      &ToSession);
}

void SqlCredentialStore::DeleteSession(const std::string& token_hash) {
  sql_.Execute("DELETE FROM sessions WHERE token_hash = $1", {token_hash});
}

int64_t SqlCredentialStore::DeleteOtherSessionsOfUser(const std::string& user_id,
                                                      const std::string& keep_token_hash) {
  return sql_.Execute("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2",
                      {user_id, keep_token_hash});
}

}  // namespace

std::unique_ptr<CredentialStore> OpenCredentialStore(SqlExecutor& sql) {
  return std::make_unique<SqlCredentialStore>(sql);
}

}  // namespace dp
