// Template entities and versions (migration 0002), written once in the portable subset.
// Each write is one statement guarded by the state it expects (compare-and-swap), because the
// adapters expose no transactions: a stale writer changes zero rows instead of overwriting.
#include <string>

#include "datapipelines/store/template_store.hpp"

#include <memory>

#include "datapipelines/store/duplicate_key_error.hpp"
#include "datapipelines/store/sql_executor.hpp"
#include "sql_cells.hpp"

namespace dp {

using sql_cells::Int;
using sql_cells::NullIfEmpty;
using sql_cells::Text;
namespace {

constexpr const char* kTemplateColumns = "workspace_id, id, created_by, created_at_ms, is_deleted";
constexpr const char* kTemplateVersionColumns =
    "workspace_id, template_id, version, status, engine, type, dialect, display_name, "
    "description, is_library, imports_json, body, body_hash, created_by, created_at_ms, "
    "updated_by, updated_at_ms";
// The same columns with the body blanked, for listings that never show it.
constexpr const char* kSummaryColumns =
    "v.workspace_id, v.template_id, v.version, v.status, v.engine, v.type, v.dialect, "
    "v.display_name, v.description, v.is_library, v.imports_json, '', v.body_hash, v.created_by, "
    "v.created_at_ms, v.updated_by, v.updated_at_ms";
// "Still live": the versions that can be a template's working version.
constexpr const char* kLive = "status IN ('DRAFT', 'RELEASED')";

TemplateRecord ToTemplate(const SqlRow& r) {
  return TemplateRecord{Text(r, 0), Text(r, 1), Text(r, 2), Int(r, 3), Int(r, 4) != 0};
}

TemplateVersionRecord ToTemplateVersion(const SqlRow& r) {
  TemplateVersionRecord v;
  v.workspace_id = Text(r, 0);
  v.template_id = Text(r, 1);
  v.version = static_cast<int>(Int(r, 2));
  v.status = Text(r, 3);
  v.engine = Text(r, 4);
  v.type = Text(r, 5);
  v.dialect = Text(r, 6);
  v.display_name = Text(r, 7);
  v.description = Text(r, 8);
  v.is_library = Int(r, 9) != 0;
  v.imports = Json::parse(Text(r, 10), nullptr, /*allow_exceptions=*/false);
  if (!v.imports.is_array()) v.imports = Json::array();
  v.body = Text(r, 11);
  v.body_hash = Text(r, 12);
  v.created_by = Text(r, 13);
  v.created_at_ms = Int(r, 14);
  v.updated_by = Text(r, 15);
  v.updated_at_ms = Int(r, 16);
  return v;
}

// The 17 column values of kTemplateVersionColumns, in order ($1..$17).
std::vector<SqlValue> TemplateVersionValues(const TemplateVersionRecord& v) {
  return {v.workspace_id,
          v.template_id,
          int64_t{v.version},
          v.status,
          v.engine,
          v.type,
          NullIfEmpty(v.dialect),
          v.display_name,
          v.description,
          int64_t{v.is_library ? 1 : 0},
          v.imports.dump(),
          v.body,
          v.body_hash,
          v.created_by,
          v.created_at_ms,
          v.updated_by,
          v.updated_at_ms};
}

class SqlTemplateStore final : public TemplateStore {
 public:
  explicit SqlTemplateStore(SqlExecutor& sql) : sql_(sql) {}

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

 private:
  SqlExecutor& sql_;
};

void SqlTemplateStore::InsertTemplate(const TemplateRecord& t, const TemplateVersionRecord& first) {
  sql_.Execute(
      std::string("INSERT INTO templates (") + kTemplateColumns + ") VALUES ($1, $2, $3, $4, $5)",
      {t.workspace_id, t.id, t.created_by, t.created_at_ms, int64_t{t.is_deleted ? 1 : 0}});
  try {
    sql_.Execute(std::string("INSERT INTO template_versions (") + kTemplateVersionColumns +
                     ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, "
                     "$16, $17)",
                 TemplateVersionValues(first));
  } catch (...) {
    // No transaction to roll back: remove the entity row so a failed create leaves nothing.
    sql_.Execute("DELETE FROM templates WHERE workspace_id = $1 AND id = $2",
                 {t.workspace_id, t.id});
    throw;
  }
}

std::optional<TemplateRecord> SqlTemplateStore::FindTemplate(const std::string& workspace_id,
                                                             const std::string& id) {
  auto rows = sql_.Query(std::string("SELECT ") + kTemplateColumns +
                             " FROM templates WHERE workspace_id = $1 AND id = $2",
                         {workspace_id, id});
  if (rows.empty()) return std::nullopt;
  return ToTemplate(rows.front());
}

std::vector<TemplateVersionRecord> SqlTemplateStore::ListTemplateVersions(
    const std::string& workspace_id, const std::string& id) {
  auto rows = sql_.Query(std::string("SELECT ") + kTemplateVersionColumns +
                             " FROM template_versions WHERE workspace_id = $1 AND template_id = $2 "
                             "ORDER BY version",
                         {workspace_id, id});
  std::vector<TemplateVersionRecord> out;
  for (const auto& row : rows) out.push_back(ToTemplateVersion(row));
  return out;
}

std::optional<TemplateVersionRecord> SqlTemplateStore::FindTemplateVersion(
    const std::string& workspace_id, const std::string& id, int version) {
  auto rows = sql_.Query(std::string("SELECT ") + kTemplateVersionColumns +
                             " FROM template_versions WHERE workspace_id = $1 AND template_id = $2 "
                             "AND version = $3",
                         {workspace_id, id, int64_t{version}});
  if (rows.empty()) return std::nullopt;
  return ToTemplateVersion(rows.front());
}

std::vector<TemplateVersionRecord> SqlTemplateStore::ListWorkingTemplateVersions(
    const std::string& workspace_id) {
  // A draft always holds the template's highest number, so the highest live version is the
  // working version (draft if one exists, else the latest release).
  auto rows = sql_.Query(
      std::string("SELECT ") + kSummaryColumns +
          " FROM template_versions v JOIN templates t ON t.workspace_id = v.workspace_id AND "
          "t.id = v.template_id WHERE v.workspace_id = $1 AND t.is_deleted = 0 AND v." +
          kLive +
          " AND v.version = (SELECT MAX(o.version) FROM template_versions o WHERE "
          "o.workspace_id = v.workspace_id AND o.template_id = v.template_id AND o." +
          kLive + ") ORDER BY v.template_id",
      {workspace_id});
  std::vector<TemplateVersionRecord> out;
  for (const auto& row : rows) out.push_back(ToTemplateVersion(row));
  return out;
}

bool SqlTemplateStore::InsertTemplateDraft(const TemplateVersionRecord& draft, int base_version,
                                           const std::string& base_hash) {
  // INSERT … SELECT so the guard and the write are one statement; casts give PostgreSQL the
  // column types it cannot infer for select-list parameters.
  std::vector<SqlValue> values = TemplateVersionValues(draft);
  values.push_back(int64_t{base_version});
  values.push_back(base_hash);
  try {
    return sql_.Execute(
               std::string("INSERT INTO template_versions (") + kTemplateVersionColumns +
                   ") SELECT $1, $2, CAST($3 AS INTEGER), $4, $5, $6, $7, $8, $9, "
                   "CAST($10 AS INTEGER), $11, $12, $13, $14, CAST($15 AS BIGINT), $16, "
                   "CAST($17 AS BIGINT) WHERE EXISTS (SELECT 1 FROM template_versions b WHERE "
                   "b.workspace_id = $1 AND b.template_id = $2 AND b.version = $18 AND "
                   "b.status = 'RELEASED' AND b.body_hash = $19) AND NOT EXISTS (SELECT 1 FROM "
                   "template_versions d WHERE d.workspace_id = $1 AND d.template_id = $2 AND "
                   "d.status = 'DRAFT')",
               values) == 1;
  } catch (const DuplicateKeyError&) {
    return false;  // another writer took this version number or opened the draft first
  }
}

bool SqlTemplateStore::OverwriteTemplateDraft(const TemplateVersionRecord& d,
                                              const std::string& expected_hash) {
  return sql_.Execute(
             "UPDATE template_versions SET engine = $4, type = $5, dialect = $6, "
             "display_name = $7, description = $8, is_library = $9, imports_json = $10, "
             "body = $11, body_hash = $12, updated_by = $13, updated_at_ms = $14 WHERE "
             "workspace_id = $1 AND template_id = $2 AND version = $3 AND status = 'DRAFT' AND "
             "body_hash = $15",
             {d.workspace_id, d.template_id, int64_t{d.version}, d.engine, d.type,
              NullIfEmpty(d.dialect), d.display_name, d.description, int64_t{d.is_library ? 1 : 0},
              d.imports.dump(), d.body, d.body_hash, d.updated_by, d.updated_at_ms,
              expected_hash}) == 1;
}

bool SqlTemplateStore::ReleaseTemplateDraft(const std::string& workspace_id, const std::string& id,
                                            int version, const std::string& expected_hash,
                                            const std::string& by, int64_t at_ms) {
  return sql_.Execute(
             "UPDATE template_versions SET status = 'RELEASED', updated_by = $5, "
             "updated_at_ms = $6 WHERE workspace_id = $1 AND template_id = $2 AND version = $3 "
             "AND status = 'DRAFT' AND body_hash = $4",
             {workspace_id, id, int64_t{version}, expected_hash, by, at_ms}) == 1;
}

bool SqlTemplateStore::DiscardTemplateVersion(const std::string& workspace_id,
                                              const std::string& id, int version,
                                              const std::string& expected_status,
                                              const std::string& by, int64_t at_ms) {
  return sql_.Execute(
             std::string("UPDATE template_versions SET status = 'DISCARDED', updated_by = $5, "
                         "updated_at_ms = $6 WHERE workspace_id = $1 AND template_id = $2 AND "
                         "version = $3 AND status = $4 AND EXISTS (SELECT 1 FROM "
                         "template_versions o WHERE o.workspace_id = $1 AND o.template_id = "
                         "$2 AND o.version <> $3 AND o.") +
                 kLive + ")",
             {workspace_id, id, int64_t{version}, expected_status, by, at_ms}) == 1;
}

bool SqlTemplateStore::SoftDeleteTemplate(const std::string& workspace_id, const std::string& id,
                                          const std::string& by, int64_t at_ms) {
  return sql_.Execute(
             "UPDATE templates SET is_deleted = 1, deleted_by = $3, deleted_at_ms = $4 WHERE "
             "workspace_id = $1 AND id = $2 AND is_deleted = 0",
             {workspace_id, id, by, at_ms}) == 1;
}

bool SqlTemplateStore::PurgeTemplateDraft(const std::string& workspace_id, const std::string& id,
                                          const std::string& expected_hash) {
  // The versions go with the entity (ON DELETE CASCADE), in the same statement as the guard.
  return sql_.Execute(
             "DELETE FROM templates WHERE workspace_id = $1 AND id = $2 AND EXISTS (SELECT 1 "
             "FROM template_versions v WHERE v.workspace_id = $1 AND v.template_id = $2 AND "
             "v.version = 1 AND v.status = 'DRAFT' AND v.body_hash = $3) AND NOT EXISTS "
             "(SELECT 1 FROM template_versions o WHERE o.workspace_id = $1 AND "
             "o.template_id = $2 AND o.version <> 1)",
             {workspace_id, id, expected_hash}) == 1;
}

}  // namespace

std::unique_ptr<TemplateStore> OpenTemplateStore(SqlExecutor& sql) {
  return std::make_unique<SqlTemplateStore>(sql);
}

}  // namespace dp
