#include "datapipelines/store/sql_metadata_store.hpp"
#include "datapipelines/util/ascii.hpp"

#include <algorithm>
#include <cctype>
#include "sql_cells.hpp"

namespace dp {

using sql_cells::Bool;
using sql_cells::Int;
using sql_cells::NullIfEmpty;
using sql_cells::Text;
namespace {

constexpr const char* kUserColumns =
    "id, email, display_name, password_hash, is_active, is_super_admin, created_at_ms";
constexpr const char* kWorkspaceColumns = "id, name, display_name, created_by, created_at_ms";
constexpr const char* kMemberColumns = "workspace_id, user_id, role, joined_at_ms";
constexpr const char* kApiKeyColumns =
    "id, user_id, workspace_id, name, kind, scope, key_hash, is_revoked, created_at_ms, "
    "expires_at_ms, last_used_at_ms, key_check, minted_by";
constexpr const char* kSessionColumns =
    "token_hash, user_id, workspace_id, created_at_ms, expires_at_ms";
constexpr const char* kAuditColumns =
    "id, timestamp_ms, event, user_id, key_id, workspace_id, correlation_id, source_ip, details";

std::string Select(const char* columns, const std::string& rest) {
  return std::string("SELECT ") + columns + " " + rest;
}

// Optional ids are NULL in the database (foreign keys) and "" in the structs.
SqlValue OptionalInt(const std::optional<int64_t>& value) {
  if (!value) return nullptr;
  return *value;
}

std::optional<int64_t> MaybeInt(const SqlRow& row, std::size_t i) {
  if (!row.at(i)) return std::nullopt;
  return Int(row, i);
}

User ToUser(const SqlRow& r) {
  return User{Text(r, 0),     Text(r, 1),     Text(r, 2), Text(r, 3),
              Int(r, 4) != 0, Int(r, 5) != 0, Int(r, 6)};
}

Workspace ToWorkspace(const SqlRow& r) {
  return Workspace{Text(r, 0), Text(r, 1), Text(r, 2), Text(r, 3), Int(r, 4)};
}

Membership ToMembership(const SqlRow& r) {
  return Membership{Text(r, 0), Text(r, 1), ParseRole(Text(r, 2)).value_or(Role::kViewer),
                    Int(r, 3)};
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
  return Session{Text(r, 0), Text(r, 1), Text(r, 2), Int(r, 3), Int(r, 4)};
}

AuditEvent ToAudit(const SqlRow& r) {
  AuditEvent e;
  e.id = Int(r, 0);
  e.timestamp_ms = Int(r, 1);
  e.event = Text(r, 2);
  e.user_id = Text(r, 3);
  e.key_id = Text(r, 4);
  e.workspace_id = Text(r, 5);
  e.correlation_id = Text(r, 6);
  e.source_ip = Text(r, 7);
  e.details = Json::parse(Text(r, 8), nullptr, /*allow_exceptions=*/false);
  if (e.details.is_discarded()) e.details = Json::object();
  return e;
}

template <typename T>
std::optional<T> First(const std::vector<SqlRow>& rows, T (*map)(const SqlRow&)) {
  if (rows.empty()) return std::nullopt;
  return map(rows.front());
}

template <typename T>
std::vector<T> All(const std::vector<SqlRow>& rows, T (*map)(const SqlRow&)) {
  std::vector<T> out;
  out.reserve(rows.size());
  for (const auto& row : rows) out.push_back(map(row));
  return out;
}

}  // namespace

// ---- users

void SqlMetadataStore::InsertUser(const User& u) {
  Execute(
      std::string("INSERT INTO users (") + kUserColumns + ") VALUES ($1, $2, $3, $4, $5, $6, $7)",
      {u.id, AsciiLower(u.email), u.display_name, u.password_hash, Bool(u.is_active),
       Bool(u.is_super_admin), u.created_at_ms});
}

std::optional<User> SqlMetadataStore::FindUserById(const std::string& id) {
  return First(Query(Select(kUserColumns, "FROM users WHERE id = $1"), {id}), &ToUser);
}

std::optional<User> SqlMetadataStore::FindUserByEmail(const std::string& email) {
  return First(Query(Select(kUserColumns, "FROM users WHERE email = $1"), {AsciiLower(email)}),
               &ToUser);
}

std::vector<User> SqlMetadataStore::ListUsers() {
  return All(Query(Select(kUserColumns, "FROM users ORDER BY created_at_ms, email"), {}), &ToUser);
}

void SqlMetadataStore::SetUserActive(const std::string& id, bool active) {
  Execute("UPDATE users SET is_active = $2 WHERE id = $1", {id, Bool(active)});
}

void SqlMetadataStore::SetUserPasswordHash(const std::string& id, const std::string& hash) {
  Execute("UPDATE users SET password_hash = $2 WHERE id = $1", {id, hash});
}

int64_t SqlMetadataStore::CountUsers() {
  return Int(Query("SELECT COUNT(*) FROM users", {}).at(0), 0);
}

// ---- workspaces

void SqlMetadataStore::InsertWorkspace(const Workspace& ws) {
  Execute(
      std::string("INSERT INTO workspaces (") + kWorkspaceColumns + ") VALUES ($1, $2, $3, $4, $5)",
      {ws.id, ws.name, ws.display_name, NullIfEmpty(ws.created_by), ws.created_at_ms});
}

std::optional<Workspace> SqlMetadataStore::FindWorkspaceById(const std::string& id) {
  return First(Query(Select(kWorkspaceColumns, "FROM workspaces WHERE id = $1"), {id}),
               &ToWorkspace);
}

std::optional<Workspace> SqlMetadataStore::FindWorkspaceByName(const std::string& name) {
  return First(Query(Select(kWorkspaceColumns, "FROM workspaces WHERE name = $1"), {name}),
               &ToWorkspace);
}

std::vector<Workspace> SqlMetadataStore::ListWorkspaces() {
  return All(Query(Select(kWorkspaceColumns, "FROM workspaces ORDER BY name"), {}), &ToWorkspace);
}

// ---- memberships

void SqlMetadataStore::UpsertMembership(const Membership& m) {
  // The original joined_at_ms survives a role change.
  Execute(std::string("INSERT INTO workspace_members (") + kMemberColumns +
              ") VALUES ($1, $2, $3, $4) ON CONFLICT (workspace_id, user_id) "
              "DO UPDATE SET role = excluded.role",
          {m.workspace_id, m.user_id, std::string(ToString(m.role)), m.joined_at_ms});
}

std::optional<Membership> SqlMetadataStore::FindMembership(const std::string& workspace_id,
                                                           const std::string& user_id) {
  return First(Query(Select(kMemberColumns,
                            "FROM workspace_members WHERE workspace_id = $1 AND user_id = $2"),
                     {workspace_id, user_id}),
               &ToMembership);
}

std::vector<Membership> SqlMetadataStore::ListMembers(const std::string& workspace_id) {
  return All(Query(Select(kMemberColumns,
                          "FROM workspace_members WHERE workspace_id = $1 "
                          "ORDER BY joined_at_ms, user_id"),
                   {workspace_id}),
             &ToMembership);
}

std::vector<Membership> SqlMetadataStore::ListMembershipsOfUser(const std::string& user_id) {
  return All(Query(Select(kMemberColumns,
                          "FROM workspace_members WHERE user_id = $1 "
                          "ORDER BY joined_at_ms, workspace_id"),
                   {user_id}),
             &ToMembership);
}

bool SqlMetadataStore::DeleteMembership(const std::string& workspace_id,
                                        const std::string& user_id) {
  return Execute("DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2",
                 {workspace_id, user_id}) > 0;
}

// ---- API keys

void SqlMetadataStore::InsertApiKey(const ApiKeyRecord& k) {
  Execute(std::string("INSERT INTO api_keys (") + kApiKeyColumns +
              ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
          {k.id, k.user_id, NullIfEmpty(k.workspace_id), k.name, std::string(ToString(k.kind)),
           std::string(ToString(k.scope)), k.key_hash, Bool(k.is_revoked), k.created_at_ms,
           OptionalInt(k.expires_at_ms), OptionalInt(k.last_used_at_ms), k.key_check, k.minted_by});
}

std::optional<ApiKeyRecord> SqlMetadataStore::FindApiKey(const std::string& id) {
  return First(Query(Select(kApiKeyColumns, "FROM api_keys WHERE id = $1"), {id}), &ToApiKey);
}

std::vector<ApiKeyRecord> SqlMetadataStore::ListApiKeysOfUser(const std::string& user_id) {
  return All(
      Query(Select(kApiKeyColumns, "FROM api_keys WHERE user_id = $1 ORDER BY created_at_ms, id"),
            {user_id}),
      &ToApiKey);
}

std::vector<ApiKeyRecord> SqlMetadataStore::ListApiKeys() {
  return All(Query(Select(kApiKeyColumns, "FROM api_keys ORDER BY created_at_ms, id"), {}),
             &ToApiKey);
}

bool SqlMetadataStore::RevokeApiKey(const std::string& id) {
  return Execute("UPDATE api_keys SET is_revoked = 1 WHERE id = $1", {id}) > 0;
}

void SqlMetadataStore::SetApiKeyCheck(const std::string& id, const std::string& key_check) {
  Execute("UPDATE api_keys SET key_check = $2 WHERE id = $1 AND key_check = ''", {id, key_check});
}

void SqlMetadataStore::TouchApiKey(const std::string& id, int64_t used_at_ms) {
  // Monotonic: a late writer from another thread never moves the stamp backwards.
  Execute(
      "UPDATE api_keys SET last_used_at_ms = $2 "
      "WHERE id = $1 AND (last_used_at_ms IS NULL OR last_used_at_ms < $2)",
      {id, used_at_ms});
}

// ---- sessions

void SqlMetadataStore::InsertSession(const Session& s) {
  Execute(std::string("INSERT INTO sessions (") + kSessionColumns + ") VALUES ($1, $2, $3, $4, $5)",
          {s.token_hash, s.user_id, NullIfEmpty(s.workspace_id), s.created_at_ms, s.expires_at_ms});
}

std::optional<Session> SqlMetadataStore::FindSession(const std::string& token_hash) {
  return First(Query(Select(kSessionColumns, "FROM sessions WHERE token_hash = $1"), {token_hash}),
               &ToSession);
}

void SqlMetadataStore::DeleteSession(const std::string& token_hash) {
  Execute("DELETE FROM sessions WHERE token_hash = $1", {token_hash});
}

int64_t SqlMetadataStore::DeleteOtherSessionsOfUser(const std::string& user_id,
                                                    const std::string& keep_token_hash) {
  return Execute("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2",
                 {user_id, keep_token_hash});
}

// ---- audit log

namespace {
// The tool a tool-call row names, as its own column (migration 0004); NULL for other events.
SqlValue ToolOf(const Json& details) {
  if (!details.is_object()) return nullptr;
  auto it = details.find("tool");
  if (it == details.end() || !it->is_string()) return nullptr;
  return it->get<std::string>();
}
}  // namespace

namespace {

constexpr std::string_view kAuditInsert =
    "INSERT INTO audit_log (timestamp_ms, event, user_id, key_id, workspace_id, correlation_id, "
    "source_ip, details, tool) VALUES ";
constexpr int kAuditColumnCount = 9;

void AppendAuditValues(const AuditEvent& e, std::vector<SqlValue>& params) {
  params.insert(
      params.end(),
      {e.timestamp_ms, e.event, NullIfEmpty(e.user_id), NullIfEmpty(e.key_id),
       NullIfEmpty(e.workspace_id), NullIfEmpty(e.correlation_id), NullIfEmpty(e.source_ip),
       e.details.is_null() ? std::string("{}") : e.details.dump(), ToolOf(e.details)});
}

// "($1, …, $9), ($10, …, $18), …" for `rows` rows.
std::string AuditPlaceholders(std::size_t rows) {
  std::string text;
  int n = 0;
  for (std::size_t row = 0; row < rows; ++row) {
    text += row == 0 ? "(" : ", (";
    for (int column = 0; column < kAuditColumnCount; ++column) {
      if (column > 0) text += ", ";
      text += '$' + std::to_string(++n);
    }
    text += ')';
  }
  return text;
}

}  // namespace

void SqlMetadataStore::AppendAudit(const AuditEvent& e) { AppendAuditBatch({e}); }

void SqlMetadataStore::AppendAuditBatch(const std::vector<AuditEvent>& events) {
  if (events.empty()) return;
  std::vector<SqlValue> params;
  params.reserve(events.size() * kAuditColumnCount);
  for (const AuditEvent& event : events) AppendAuditValues(event, params);
  Execute(std::string(kAuditInsert) + AuditPlaceholders(events.size()), params);
}

std::vector<AuditEvent> SqlMetadataStore::ListAudit(const std::string& event_prefix, int limit) {
  if (limit <= 0) return {};
  // substr rather than LIKE: '_' in event names is not a wildcard and case matters on both.
  // Both backends count substr() in characters, not bytes.
  int64_t prefix_length = std::count_if(event_prefix.begin(), event_prefix.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  });
  return All(Query(Select(kAuditColumns,
                          "FROM audit_log WHERE substr(event, 1, $2) = $1 "
                          "ORDER BY id DESC LIMIT $3"),
                   {event_prefix, prefix_length, int64_t{limit}}),
             &ToAudit);
}

std::vector<AuditEvent> SqlMetadataStore::ListAuditSince(int64_t since_ms,
                                                         const std::string& event_prefix,
                                                         int offset, int limit) {
  if (limit <= 0) return {};
  int64_t prefix_length = std::count_if(event_prefix.begin(), event_prefix.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  });
  return All(
      Query(Select(kAuditColumns,
                   "FROM audit_log WHERE timestamp_ms >= $1 AND substr(event, 1, $3) = $2 "
                   "ORDER BY id DESC LIMIT $4 OFFSET $5"),
            {since_ms, event_prefix, prefix_length, int64_t{limit}, int64_t{std::max(offset, 0)}}),
      &ToAudit);
}

}  // namespace dp
