#pragma once
// The metadata database (DESIGN §6): one connection (SQLite, the embedded default, or a
// PostgreSQL pool) with its numbered migrations, and the record-kind ports that live on it.
// The spine's ports — users, workspaces, credentials, audit, templates, datasources — are
// opened with the store and reached through it; the later ones (pipelines, executions,
// learned facts, endpoints, lake tables) open over it with their own Open*Store(MetadataStore&).
// Every call blocks: services run them on the blocking pool, never on an I/O thread.
// Timestamps are epoch milliseconds (UTC); ids are lowercase UUID text, except API key
// ids which are the public "dpk_<12 base32>" handle.
#include <memory>
#include <string>

#include "datapipelines/store/audit_sink.hpp"
#include "datapipelines/store/credential_store.hpp"
#include "datapipelines/store/datasource_store.hpp"
#include "datapipelines/store/duplicate_key_error.hpp"
#include "datapipelines/store/sql_executor.hpp"
#include "datapipelines/store/template_store.hpp"
#include "datapipelines/store/user_store.hpp"
#include "datapipelines/store/workspace_store.hpp"

namespace dp {

// An adapter supplies statement execution (SqlExecutor: $1..$n placeholders), migrations,
// version and ping; every record-kind port is written once over that in the portable subset.
class MetadataStore : public SqlExecutor {
 public:
  MetadataStore();
  ~MetadataStore() override;
  MetadataStore(const MetadataStore&) = delete;
  MetadataStore& operator=(const MetadataStore&) = delete;

  // Applies pending numbered migrations; returns the schema version after.
  virtual int Migrate() = 0;
  virtual int SchemaVersion() = 0;
  // True when the backing database answers a trivial query.
  virtual bool Ping() = 0;
  virtual std::string BackendName() const = 0;  // "sqlite" | "postgres"

  UserStore& Users() { return *users_; }
  WorkspaceStore& Workspaces() { return *workspaces_; }
  CredentialStore& Credentials() { return *credentials_; }
  AuditSink& Audit() { return *audit_; }
  TemplateStore& Templates() { return *templates_; }
  DatasourceStore& Datasources() { return *datasources_; }

 private:
  // Hold a reference to this executor; built in the constructor, used only after it.
  std::unique_ptr<UserStore> users_;
  std::unique_ptr<WorkspaceStore> workspaces_;
  std::unique_ptr<CredentialStore> credentials_;
  std::unique_ptr<AuditSink> audit_;
  std::unique_ptr<TemplateStore> templates_;
  std::unique_ptr<DatasourceStore> datasources_;
};

// Opens the adapter the URL names: "sqlite:<path>" (or a bare path) | "postgresql://…".
// Throws std::runtime_error with a message free of credentials on failure.
std::unique_ptr<MetadataStore> OpenMetadataStore(const std::string& url);

}  // namespace dp
