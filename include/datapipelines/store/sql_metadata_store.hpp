#pragma once
// The backend-neutral half of the metadata store: every CRUD method written once in the
// portable SQL subset. Adapters supply statement execution (placeholders are $1..$n; the
// SQLite adapter maps them to ?1..?n) plus migrations, version and ping.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/sql_executor.hpp"

namespace dp {

class SqlMetadataStore : public MetadataStore, public SqlExecutor {
 public:
  void InsertUser(const User& user) override;
  std::optional<User> FindUserById(const std::string& id) override;
  std::optional<User> FindUserByEmail(const std::string& email) override;
  std::vector<User> ListUsers() override;
  void SetUserActive(const std::string& id, bool active) override;
  void SetUserPasswordHash(const std::string& id, const std::string& hash) override;
  int64_t CountUsers() override;

  void InsertWorkspace(const Workspace& ws) override;
  std::optional<Workspace> FindWorkspaceById(const std::string& id) override;
  std::optional<Workspace> FindWorkspaceByName(const std::string& name) override;
  std::vector<Workspace> ListWorkspaces() override;

  void UpsertMembership(const Membership& m) override;
  std::optional<Membership> FindMembership(const std::string& workspace_id,
                                           const std::string& user_id) override;
  std::vector<Membership> ListMembers(const std::string& workspace_id) override;
  std::vector<Membership> ListMembershipsOfUser(const std::string& user_id) override;
  bool DeleteMembership(const std::string& workspace_id, const std::string& user_id) override;

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

  void AppendAudit(const AuditEvent& event) override;
  // One multi-row INSERT: atomic on both backends, one commit for the whole batch.
  void AppendAuditBatch(const std::vector<AuditEvent>& events) override;
  // limit <= 0 returns nothing.
  std::vector<AuditEvent> ListAudit(const std::string& event_prefix, int limit) override;
  std::vector<AuditEvent> ListAuditSince(int64_t since_ms, const std::string& event_prefix,
                                         int offset, int limit) override;

  // [templates] implemented in sql_metadata_store_templates.cpp
  void InsertTemplate(const TemplateRecord& tmpl, const TemplateVersionRecord& first) override;
  std::optional<TemplateRecord> FindTemplate(const std::string& workspace_id,
                                             const std::string& id) override;
  std::vector<TemplateVersionRecord> ListTemplateVersions(const std::string& workspace_id,
                                                          const std::string& id) override;
  std::optional<TemplateVersionRecord> FindTemplateVersion(const std::string& workspace_id,
                                                           const std::string& id,
                                                           int version) override;
  std::vector<TemplateVersionRecord> ListWorkingTemplateVersions(
      const std::string& workspace_id) override;
  bool InsertTemplateDraft(const TemplateVersionRecord& draft, int base_version,
                           const std::string& base_hash) override;
  bool OverwriteTemplateDraft(const TemplateVersionRecord& draft,
                              const std::string& expected_hash) override;
  bool ReleaseTemplateDraft(const std::string& workspace_id, const std::string& id, int version,
                            const std::string& expected_hash, const std::string& by,
                            int64_t at_ms) override;
  bool DiscardTemplateVersion(const std::string& workspace_id, const std::string& id, int version,
                              const std::string& expected_status, const std::string& by,
                              int64_t at_ms) override;
  bool SoftDeleteTemplate(const std::string& workspace_id, const std::string& id,
                          const std::string& by, int64_t at_ms) override;
  bool PurgeTemplateDraft(const std::string& workspace_id, const std::string& id,
                          const std::string& expected_hash) override;

  // [datasources] implemented in sql_metadata_store_datasources.cpp
  void InsertDatasource(const DatasourceRecord& ds) override;
  bool UpdateDatasource(const DatasourceRecord& ds) override;
  std::optional<DatasourceRecord> FindDatasource(const std::string& name) override;
  std::vector<DatasourceRecord> ListDatasources() override;
  std::vector<DatasourceRecord> ListDatasourcesGrantedTo(const std::string& workspace_id) override;
  bool SoftDeleteDatasource(const std::string& name, int64_t at_ms) override;
  bool RestoreDatasource(const std::string& name, int64_t at_ms) override;
  bool PurgeDatasource(const std::string& name) override;
  void SetDatasourceLastTest(const std::string& name, const DatasourceLastTest& test) override;
  void InsertDatasourceGrant(const DatasourceGrant& grant) override;
  bool DeleteDatasourceGrant(const std::string& name, const std::string& workspace_id) override;
  std::vector<DatasourceGrant> ListDatasourceGrants(const std::string& name) override;
  bool IsDatasourceGranted(const std::string& name, const std::string& workspace_id) override;

  // Query and Execute (SqlExecutor) are the adapters' part: statement execution.
};

}  // namespace dp
