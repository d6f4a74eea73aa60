#pragma once
// The datasource port (migration 0003): the datasource registry and its workspace grants.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

class SqlExecutor;

// The outcome of the last connection test (datasources.md §8.1B): no message, by construction
// (a driver's sentence can name a host or a user); error_code is "" on success.
struct DatasourceLastTest {
  int64_t tested_at_ms = 0;
  bool ok = false;
  int64_t latency_ms = 0;
  std::string error_code;
};

// A registered datasource (datasources.md §3, metadata-db §4.10). The password is held only
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

class DatasourceStore {
 public:
  virtual ~DatasourceStore() = default;

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

// The SQL adapter, written once in the portable subset for both backends.
std::unique_ptr<DatasourceStore> OpenDatasourceStore(SqlExecutor& sql);

}  // namespace dp
