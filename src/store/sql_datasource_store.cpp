// The datasource registry and its workspace grants (migration 0003), written once in the
// portable SQL subset for both adapters.
#include "datapipelines/store/datasource_store.hpp"

#include <memory>

#include "datapipelines/store/duplicate_key_error.hpp"
#include "datapipelines/store/sql_executor.hpp"
#include "sql_cells.hpp"

namespace dp {

using sql_cells::All;
using sql_cells::Bool;
using sql_cells::Int;
using sql_cells::NullIfEmpty;
using sql_cells::Text;
namespace {

constexpr const char* kDatasourceColumns =
    "name, display_name, description, dialect, jdbc_url, username, password_encrypted, "
    "properties_json, query_timeout_seconds, include_schemas_json, is_readonly, workspace_id, "
    "is_deleted, created_by, created_at_ms, updated_at_ms";
// Read only: written by SetDatasourceLastTest alone (migration 0011).
constexpr const char* kSelectColumns =
    "name, display_name, description, dialect, jdbc_url, username, password_encrypted, "
    "properties_json, query_timeout_seconds, include_schemas_json, is_readonly, workspace_id, "
    "is_deleted, created_by, created_at_ms, updated_at_ms, last_test_at_ms, last_test_ok, "
    "last_test_latency_ms, last_test_error_code";
constexpr const char* kGrantColumns = "datasource_name, workspace_id, granted_by, granted_at_ms";

Json ParseJson(const std::optional<std::string>& text, Json fallback) {
  if (!text) return fallback;
  Json parsed = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? fallback : parsed;
}

DatasourceRecord ToDatasource(const SqlRow& r) {
  DatasourceRecord ds;
  ds.name = Text(r, 0);
  ds.display_name = Text(r, 1);
  ds.description = r.at(2);
  ds.dialect = Text(r, 3);
  ds.jdbc_url = Text(r, 4);
  ds.username = Text(r, 5);
  ds.password_encrypted = Text(r, 6);
  ds.properties = ParseJson(r.at(7), Json::object());
  if (r.at(8)) ds.query_timeout_seconds = static_cast<int>(Int(r, 8));
  Json schemas = ParseJson(r.at(9), Json::array());
  for (const auto& item : schemas) {
    if (item.is_string()) ds.include_schemas.push_back(item.get<std::string>());
  }
  ds.readonly = Int(r, 10) != 0;
  ds.workspace_id = Text(r, 11);
  ds.is_deleted = Int(r, 12) != 0;
  ds.created_by = Text(r, 13);
  ds.created_at_ms = Int(r, 14);
  ds.updated_at_ms = Int(r, 15);
  if (r.at(16)) {
    ds.last_test = DatasourceLastTest{Int(r, 16), Int(r, 17) != 0, Int(r, 18), Text(r, 19)};
  }
  return ds;
}

DatasourceGrant ToGrant(const SqlRow& r) {
  return DatasourceGrant{Text(r, 0), Text(r, 1), Text(r, 2), Int(r, 3)};
}

std::vector<SqlValue> MutableValues(const DatasourceRecord& ds) {
  SqlValue description = ds.description ? SqlValue(*ds.description) : SqlValue(nullptr);
  SqlValue timeout =
      ds.query_timeout_seconds ? SqlValue(int64_t{*ds.query_timeout_seconds}) : SqlValue(nullptr);
  return {ds.name,
          ds.display_name,
          description,
          ds.dialect,
          ds.jdbc_url,
          ds.username,
          ds.password_encrypted,
          ds.properties.dump(),
          timeout,
          Json(ds.include_schemas).dump(),
          Bool(ds.readonly),
          NullIfEmpty(ds.workspace_id)};
}

class SqlDatasourceStore final : public DatasourceStore {
 public:
  explicit SqlDatasourceStore(SqlExecutor& sql) : sql_(sql) {}

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

 private:
  SqlExecutor& sql_;
};

void SqlDatasourceStore::InsertDatasource(const DatasourceRecord& ds) {
  std::vector<SqlValue> values = MutableValues(ds);
  values.push_back(Bool(ds.is_deleted));
  values.push_back(NullIfEmpty(ds.created_by));
  values.push_back(ds.created_at_ms);
  values.push_back(ds.updated_at_ms);
  sql_.Execute(
      std::string("INSERT INTO datasources (") + kDatasourceColumns +
          ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
      values);
}

bool SqlDatasourceStore::UpdateDatasource(const DatasourceRecord& ds) {
  std::vector<SqlValue> values = MutableValues(ds);
  values.push_back(ds.updated_at_ms);
  return sql_.Execute(
             "UPDATE datasources SET display_name = $2, description = $3, dialect = $4, "
             "jdbc_url = $5, username = $6, password_encrypted = $7, properties_json = $8, "
             "query_timeout_seconds = $9, include_schemas_json = $10, is_readonly = $11, "
             "workspace_id = $12, updated_at_ms = $13 WHERE name = $1 AND is_deleted = 0",
             values) > 0;
}

std::optional<DatasourceRecord> SqlDatasourceStore::FindDatasource(const std::string& name) {
  auto rows = sql_.Query(
      std::string("SELECT ") + kSelectColumns + " FROM datasources WHERE name = $1", {name});
  if (rows.empty()) return std::nullopt;
  return ToDatasource(rows.front());
}

std::vector<DatasourceRecord> SqlDatasourceStore::ListDatasources() {
  return All(sql_.Query(std::string("SELECT ") + kSelectColumns +
                            " FROM datasources WHERE is_deleted = 0 ORDER BY name",
                        {}),
             &ToDatasource);
}

std::vector<DatasourceRecord> SqlDatasourceStore::ListDatasourcesGrantedTo(
    const std::string& workspace_id) {
  return All(
      sql_.Query(std::string("SELECT ") + kSelectColumns +
                     " FROM datasources WHERE is_deleted = 0 AND name IN "
                     "(SELECT datasource_name FROM datasource_grants WHERE workspace_id = $1)"
                     " ORDER BY name",
                 {workspace_id}),
      &ToDatasource);
}

bool SqlDatasourceStore::SoftDeleteDatasource(const std::string& name, int64_t at_ms) {
  return sql_.Execute(
             "UPDATE datasources SET is_deleted = 1, updated_at_ms = $2 "
             "WHERE name = $1 AND is_deleted = 0",
             {name, at_ms}) > 0;
}

bool SqlDatasourceStore::RestoreDatasource(const std::string& name, int64_t at_ms) {
  return sql_.Execute(
             "UPDATE datasources SET is_deleted = 0, updated_at_ms = $2 "
             "WHERE name = $1 AND is_deleted = 1",
             {name, at_ms}) > 0;
}

bool SqlDatasourceStore::PurgeDatasource(const std::string& name) {
  return sql_.Execute("DELETE FROM datasources WHERE name = $1 AND is_deleted = 1", {name}) > 0;
}

void SqlDatasourceStore::SetDatasourceLastTest(const std::string& name,
                                               const DatasourceLastTest& test) {
  sql_.Execute(
      "UPDATE datasources SET last_test_at_ms = $2, last_test_ok = $3, last_test_latency_ms = $4, "
      "last_test_error_code = $5 WHERE name = $1",
      {name, test.tested_at_ms, Bool(test.ok), test.latency_ms, NullIfEmpty(test.error_code)});
}

void SqlDatasourceStore::InsertDatasourceGrant(const DatasourceGrant& grant) {
  sql_.Execute(
      std::string("INSERT INTO datasource_grants (") + kGrantColumns +
          ") VALUES ($1, $2, $3, $4) ON CONFLICT (datasource_name, workspace_id) DO NOTHING",
      {grant.datasource_name, grant.workspace_id, NullIfEmpty(grant.granted_by),
       grant.granted_at_ms});
}

bool SqlDatasourceStore::DeleteDatasourceGrant(const std::string& name,
                                               const std::string& workspace_id) {
  return sql_.Execute(
             "DELETE FROM datasource_grants WHERE datasource_name = $1 AND workspace_id = $2",
             {name, workspace_id}) > 0;
}

std::vector<DatasourceGrant> SqlDatasourceStore::ListDatasourceGrants(const std::string& name) {
  return All(sql_.Query(std::string("SELECT ") + kGrantColumns +
                            " FROM datasource_grants WHERE datasource_name = $1 "
                            "ORDER BY granted_at_ms, workspace_id",
                        {name}),
             &ToGrant);
}

bool SqlDatasourceStore::IsDatasourceGranted(const std::string& name,
                                             const std::string& workspace_id) {
  return !sql_.Query(
                  "SELECT 1 FROM datasource_grants g JOIN datasources d ON d.name = "
                  "g.datasource_name "
                  "WHERE g.datasource_name = $1 AND g.workspace_id = $2 AND d.is_deleted = 0",
                  {name, workspace_id})
              .empty();
}

}  // namespace

std::unique_ptr<DatasourceStore> OpenDatasourceStore(SqlExecutor& sql) {
  return std::make_unique<SqlDatasourceStore>(sql);
}

}  // namespace dp
