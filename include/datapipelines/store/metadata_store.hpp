#pragma once
// The metadata store port (DESIGN §6): users, workspaces, memberships, API keys, sessions
// and the audit log. Adapters: SQLite (embedded default) and PostgreSQL (libpqxx).
// Every call blocks: services run them on the blocking pool, never on an I/O thread.
// Timestamps are epoch milliseconds (UTC); ids are lowercase UUID text, except API key
// ids which are the public "dpk_<12 base32>" handle.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/domain/access.hpp"
#include "datapipelines/store/template_records.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

struct User {
  std::string id;
  std::string email;
  std::string display_name;
  std::string password_hash;  // Argon2id encoded hash; empty = no local password
  bool is_active = true;
  bool is_super_admin = false;
  int64_t created_at_ms = 0;
};

struct Workspace {
  std::string id;
  std::string name;  // [a-z0-9_-]{1,63}, globally unique
  std::string display_name;
  std::string created_by;  // user id
  int64_t created_at_ms = 0;
};

struct Membership {
  std::string workspace_id;
  std::string user_id;
  Role role = Role::kViewer;
  int64_t joined_at_ms = 0;
};

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
  std::string key_check;  // fast pre-check of the full key (AuthService); "" = not yet set
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
};

struct AuditEvent {
  int64_t id = 0;  // assigned by the store
  int64_t timestamp_ms = 0;
  std::string event;  // "mcp.tool.called", "auth.api_key.created", ...
  std::string user_id;
  std::string key_id;
  std::string workspace_id;
  std::string correlation_id;
  std::string source_ip;
  Json details = Json::object();  // never SQL text, row data, parameter values or secrets
};

// A registered datasource (datasources.md §3, metadata-db §4.10). The password is held only
// The outcome of the last connection test (datasources.md §8.1B): no message, by construction
// (a driver's sentence can name a host or a user); error_code is "" on success.
struct DatasourceLastTest {
  int64_t tested_at_ms = 0;
  bool ok = false;
  int64_t latency_ms = 0;
  std::string error_code;
};

// as the sealed envelope; properties is the {"hikari": {...}, "jdbc": {...}} object.
struct DatasourceRecord {
  std::string name;
  std::string display_name;
  std::optional<std::string> description;
  std::string dialect;  // the enum spelling, "POSTGRES"
  std::string jdbc_url;
  std::string username;
  std::string password_encrypted;  // SecretBox envelope, never plaintext
  Json properties = Json::object();
  std::optional<int> query_timeout_seconds;
  std::vector<std::string> include_schemas;
  bool readonly = false;
  std::string workspace_id;  // the registering workspace; "" = instance-level
  bool is_deleted = false;
  std::optional<DatasourceLastTest> last_test;  // nullopt = never tested (migration 0011)
  std::string created_by;
  int64_t created_at_ms = 0;
  int64_t updated_at_ms = 0;
};

struct DatasourceGrant {
  std::string datasource_name;
  std::string workspace_id;
  std::string granted_by;
  int64_t granted_at_ms = 0;
};

// Thrown by adapters when a unique constraint is violated (callers map it to a domain code).
class DuplicateKeyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class MetadataStore {
 public:
  virtual ~MetadataStore() = default;

  // Applies pending numbered migrations; returns the schema version after.
  virtual int Migrate() = 0;
  virtual int SchemaVersion() = 0;
  // True when the backing database answers a trivial query.
  virtual bool Ping() = 0;
  virtual std::string BackendName() const = 0;  // "sqlite" | "postgres"

  // users
  virtual void InsertUser(const User& user) = 0;
  virtual std::optional<User> FindUserById(const std::string& id) = 0;
  virtual std::optional<User> FindUserByEmail(const std::string& email) = 0;
  virtual std::vector<User> ListUsers() = 0;
  virtual void SetUserActive(const std::string& id, bool active) = 0;
  virtual void SetUserPasswordHash(const std::string& id, const std::string& hash) = 0;
  virtual int64_t CountUsers() = 0;

  // workspaces
  virtual void InsertWorkspace(const Workspace& ws) = 0;
  virtual std::optional<Workspace> FindWorkspaceById(const std::string& id) = 0;
  virtual std::optional<Workspace> FindWorkspaceByName(const std::string& name) = 0;
  virtual std::vector<Workspace> ListWorkspaces() = 0;

  // memberships (upsert replaces the role)
  virtual void UpsertMembership(const Membership& m) = 0;
  virtual std::optional<Membership> FindMembership(const std::string& workspace_id,
                                                   const std::string& user_id) = 0;
  virtual std::vector<Membership> ListMembers(const std::string& workspace_id) = 0;
  virtual std::vector<Membership> ListMembershipsOfUser(const std::string& user_id) = 0;
  virtual bool DeleteMembership(const std::string& workspace_id, const std::string& user_id) = 0;

  // API keys
  virtual void InsertApiKey(const ApiKeyRecord& key) = 0;
  virtual std::optional<ApiKeyRecord> FindApiKey(const std::string& id) = 0;
  virtual std::vector<ApiKeyRecord> ListApiKeysOfUser(const std::string& user_id) = 0;
  virtual std::vector<ApiKeyRecord> ListApiKeys() = 0;
  virtual bool RevokeApiKey(const std::string& id) = 0;  // false when unknown
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

  // audit log (append-only)
  virtual void AppendAudit(const AuditEvent& event) = 0;
  // All the rows or none (one statement where the backend allows it); the default appends them
  // one by one.
  virtual void AppendAuditBatch(const std::vector<AuditEvent>& events) {
    for (const AuditEvent& event : events) AppendAudit(event);
  }
  // Newest first; event_prefix "" = all.
  virtual std::vector<AuditEvent> ListAudit(const std::string& event_prefix, int limit) = 0;
  // The rows at or after since_ms whose event starts with event_prefix, newest first, one page
  // (offset rows skipped, at most limit returned).
  virtual std::vector<AuditEvent> ListAuditSince(int64_t since_ms, const std::string& event_prefix,
                                                 int offset, int limit) = 0;

  // [templates] template entities and versions (migration 0002)
  // Every write below is compare-and-swap: false means the row was not in the expected state
  // (a concurrent writer won), never a partial write.
  // Inserts the entity and its version 1; DuplicateKeyError when the id exists in the
  // workspace (soft-deleted ids included).
  virtual void InsertTemplate(const TemplateRecord& tmpl, const TemplateVersionRecord& first) = 0;
  virtual std::optional<TemplateRecord> FindTemplate(const std::string& workspace_id,
                                                     const std::string& id) = 0;
  // Ascending by version, bodies included.
  virtual std::vector<TemplateVersionRecord> ListTemplateVersions(const std::string& workspace_id,
                                                                  const std::string& id) = 0;
  virtual std::optional<TemplateVersionRecord> FindTemplateVersion(const std::string& workspace_id,
                                                                   const std::string& id,
                                                                   int version) = 0;
  // The working version (highest DRAFT/RELEASED) of every live template, bodies left empty,
  // ordered by id.
  virtual std::vector<TemplateVersionRecord> ListWorkingTemplateVersions(
      const std::string& workspace_id) = 0;
  // Copy-on-write: inserts `draft` only while version `base_version` is still RELEASED with
  // `base_hash` and no other draft exists.
  virtual bool InsertTemplateDraft(const TemplateVersionRecord& draft, int base_version,
                                   const std::string& base_hash) = 0;
  // Overwrites the open draft in place when its body_hash still equals `expected_hash`.
  virtual bool OverwriteTemplateDraft(const TemplateVersionRecord& draft,
                                      const std::string& expected_hash) = 0;
  // DRAFT → RELEASED when the draft still has `expected_hash`.
  virtual bool ReleaseTemplateDraft(const std::string& workspace_id, const std::string& id,
                                    int version, const std::string& expected_hash,
                                    const std::string& by, int64_t at_ms) = 0;
  // `expected_status` → DISCARDED, only while another DRAFT/RELEASED version remains.
  virtual bool DiscardTemplateVersion(const std::string& workspace_id, const std::string& id,
                                      int version, const std::string& expected_status,
                                      const std::string& by, int64_t at_ms) = 0;
  virtual bool SoftDeleteTemplate(const std::string& workspace_id, const std::string& id,
                                  const std::string& by, int64_t at_ms) = 0;
  // Hard-deletes the entity and its versions when version 1 is still the only version, a
  // DRAFT with `expected_hash`.
  virtual bool PurgeTemplateDraft(const std::string& workspace_id, const std::string& id,
                                  const std::string& expected_hash) = 0;

  // [datasources] datasource registry and workspace grants (migration 0003)
  // Throws DuplicateKeyError when the name exists (soft-deleted rows included).
  virtual void InsertDatasource(const DatasourceRecord& ds) = 0;
  // Rewrites every mutable column of a live row; false when there is none.
  virtual bool UpdateDatasource(const DatasourceRecord& ds) = 0;
  // The row whatever its deleted flag (callers decide what a deleted row means).
  virtual std::optional<DatasourceRecord> FindDatasource(const std::string& name) = 0;
  // Live rows, by name.
  virtual std::vector<DatasourceRecord> ListDatasources() = 0;
  // Live rows granted to the workspace, by name.
  virtual std::vector<DatasourceRecord> ListDatasourcesGrantedTo(
      const std::string& workspace_id) = 0;
  virtual bool SoftDeleteDatasource(const std::string& name, int64_t at_ms) = 0;
  // Undoes a soft delete; false when no deleted row has the name.
  virtual bool RestoreDatasource(const std::string& name, int64_t at_ms) = 0;
  // Removes a soft-deleted row for good (its grants, lake tables and learned facts cascade);
  // false when no deleted row has the name.
  virtual bool PurgeDatasource(const std::string& name) = 0;
  // Records the last connection test; touches the last_test_* columns only (not updated_at).
  virtual void SetDatasourceLastTest(const std::string& name, const DatasourceLastTest& test) = 0;
  // Idempotent: re-granting keeps the first grant's provenance.
  virtual void InsertDatasourceGrant(const DatasourceGrant& grant) = 0;
  virtual bool DeleteDatasourceGrant(const std::string& name, const std::string& workspace_id) = 0;
  virtual std::vector<DatasourceGrant> ListDatasourceGrants(const std::string& name) = 0;
  virtual bool IsDatasourceGranted(const std::string& name, const std::string& workspace_id) = 0;
};

// Opens the adapter the URL names: "sqlite:<path>" (or a bare path) | "postgresql://…".
// Throws std::runtime_error with a message free of credentials on failure.
std::unique_ptr<MetadataStore> OpenMetadataStore(const std::string& url);

}  // namespace dp
