// Pipeline entities and versions (migration 0004), written once in the portable subset over the
// metadata database's connection. Each write is one statement guarded by the state it expects
// (compare-and-swap), because the adapters expose no transactions.
#include <stdexcept>
#include <string>

#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/pipeline_store.hpp"
#include "datapipelines/store/sql_executor.hpp"
#include "sql_cells.hpp"

namespace dp {

using sql_cells::Int;
using sql_cells::NullIfEmpty;
using sql_cells::NullIfZero;
using sql_cells::Text;
namespace {

constexpr const char* kEntityColumns = "id, workspace_id, name, owner, created_at_ms";
constexpr const char* kVersionColumns =
    "pipeline_id, version, status, body_json, body_hash, created_by, created_at_ms, updated_by, "
    "updated_at_ms, released_by, released_at_ms";

PipelineRecord ToEntity(const SqlRow& r) {
  return PipelineRecord{Text(r, 1), Text(r, 0), Text(r, 2), Text(r, 3), Int(r, 4)};
}

PipelineVersionRecord ToVersion(const SqlRow& r) {
  PipelineVersionRecord v;
  v.pipeline_id = Text(r, 0);
  v.version = static_cast<int>(Int(r, 1));
  v.status = Text(r, 2);
  v.body = Json::parse(Text(r, 3), nullptr, /*allow_exceptions=*/false);
  if (!v.body.is_object()) v.body = Json::object();
  v.body_hash = Text(r, 4);
  v.created_by = Text(r, 5);
  v.created_at_ms = Int(r, 6);
  v.updated_by = Text(r, 7);
  v.updated_at_ms = Int(r, 8);
  v.released_by = Text(r, 9);
  v.released_at_ms = Int(r, 10);
  return v;
}

// The 11 column values of kVersionColumns, in order ($1..$11).
std::vector<SqlValue> PipelineVersionValues(const PipelineVersionRecord& v) {
  return {v.pipeline_id,
          int64_t{v.version},
          v.status,
          v.body.dump(),
          v.body_hash,
          v.created_by,
          v.created_at_ms,
          v.updated_by,
          v.updated_at_ms,
          NullIfEmpty(v.released_by),
          NullIfZero(v.released_at_ms)};
}

class SqlPipelineStore : public PipelineStore {
 public:
  explicit SqlPipelineStore(SqlExecutor& sql) : sql_(sql) {}

  void InsertPipeline(const PipelineRecord& p, const PipelineVersionRecord& first) override {
    sql_.Execute(
        std::string("INSERT INTO pipelines (") + kEntityColumns + ") VALUES ($1, $2, $3, $4, $5)",
        {p.id, p.workspace_id, p.name, p.owner, p.created_at_ms});
    try {
      sql_.Execute(std::string("INSERT INTO pipeline_versions (") + kVersionColumns +
                       ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                   PipelineVersionValues(first));
    } catch (...) {
      // No transaction to roll back: remove the entity row so a failed create leaves nothing.
      sql_.Execute("DELETE FROM pipelines WHERE id = $1", {p.id});
      throw;
    }
  }

  std::optional<PipelineRecord> FindPipeline(const std::string& workspace_id,
                                             const std::string& id) override {
    return FindOne("workspace_id = $1 AND id = $2", {workspace_id, id});
  }

  std::optional<PipelineRecord> FindPipelineByName(const std::string& workspace_id,
                                                   const std::string& name) override {
    return FindOne("workspace_id = $1 AND name = $2", {workspace_id, name});
  }

  std::vector<PipelineVersionRecord> ListPipelineVersions(const std::string& id) override {
    auto rows = sql_.Query(std::string("SELECT ") + kVersionColumns +
                               " FROM pipeline_versions WHERE pipeline_id = $1 ORDER BY version",
                           {id});
    std::vector<PipelineVersionRecord> out;
    for (const auto& row : rows) out.push_back(ToVersion(row));
    return out;
  }

  std::vector<PipelineWithVersions> ListPipelines(const std::string& workspace_id) override {
    std::string where = workspace_id.empty() ? "" : " WHERE p.workspace_id = $1";
    std::vector<SqlValue> params;
    if (!workspace_id.empty()) params.push_back(workspace_id);
    // One query for the whole listing: entities joined to their versions, grouped here.
    auto rows = sql_.Query(
        "SELECT p.id, p.workspace_id, p.name, p.owner, p.created_at_ms, v.pipeline_id, v.version, "
        "v.status, v.body_json, v.body_hash, v.created_by, v.created_at_ms, v.updated_by, "
        "v.updated_at_ms, v.released_by, v.released_at_ms FROM pipelines p JOIN "
        "pipeline_versions v ON v.pipeline_id = p.id" +
            where + " ORDER BY p.name, p.id, v.version",
        params);
    std::vector<PipelineWithVersions> out;
    for (const auto& row : rows) {
      if (out.empty() || out.back().entity.id != Text(row, 0)) {
        out.push_back({ToEntity(row), {}});
      }
      out.back().versions.push_back(ToVersion(SqlRow(row.begin() + 5, row.end())));
    }
    return out;
  }

  bool InsertPipelineDraft(const PipelineVersionRecord& draft, int base_version,
                           const std::string& base_hash) override {
    std::vector<SqlValue> values = PipelineVersionValues(draft);
    values.push_back(int64_t{base_version});
    values.push_back(base_hash);
    try {
      // INSERT … SELECT so the guard and the write are one statement; casts give PostgreSQL the
      // column types it cannot infer for select-list parameters.
      return sql_.Execute(std::string("INSERT INTO pipeline_versions (") + kVersionColumns +
                              ") SELECT $1, CAST($2 AS INTEGER), $3, $4, $5, $6, "
                              "CAST($7 AS BIGINT), $8, CAST($9 AS BIGINT), $10, "
                              "CAST($11 AS BIGINT) WHERE EXISTS (SELECT 1 FROM pipeline_versions "
                              "b WHERE b.pipeline_id = $1 AND b.version = $12 AND b.status = "
                              "'RELEASED' AND b.body_hash = $13) AND NOT EXISTS (SELECT 1 FROM "
                              "pipeline_versions d WHERE d.pipeline_id = $1 AND d.status = "
                              "'DRAFT')",
                          values) == 1;
    } catch (const DuplicateKeyError&) {
      return false;  // another writer took this version number or opened the draft first
    }
  }

  bool OverwritePipelineDraft(const PipelineVersionRecord& d,
                              const std::string& expected_hash) override {
    return sql_.Execute(
               "UPDATE pipeline_versions SET body_json = $3, body_hash = $4, updated_by = $5, "
               "updated_at_ms = $6 WHERE pipeline_id = $1 AND version = $2 AND status = 'DRAFT' "
               "AND body_hash = $7",
               {d.pipeline_id, int64_t{d.version}, d.body.dump(), d.body_hash, d.updated_by,
                d.updated_at_ms, expected_hash}) == 1;
  }

  bool ReleasePipelineDraft(const std::string& id, int version, const std::string& expected_hash,
                            const std::string& by, int64_t at_ms) override {
    return sql_.Execute(
               "UPDATE pipeline_versions SET status = 'RELEASED', released_by = $4, "
               "released_at_ms = $5, updated_by = $4, updated_at_ms = $5 WHERE pipeline_id = $1 "
               "AND version = $2 AND status = 'DRAFT' AND body_hash = $3",
               {id, int64_t{version}, expected_hash, by, at_ms}) == 1;
  }

  bool PurgePipelineDraft(const std::string& id, int version,
                          const std::string& expected_hash) override {
    return sql_.Execute(
               "DELETE FROM pipeline_versions WHERE pipeline_id = $1 AND version = $2 AND status = "
               "'DRAFT' AND body_hash = $3 AND EXISTS (SELECT 1 FROM pipeline_versions o WHERE "
               "o.pipeline_id = $1 AND o.version <> $2)",
               {id, int64_t{version}, expected_hash}) == 1;
  }

  bool PurgePipeline(const std::string& id, const std::string& expected_hash) override {
    // The versions go with the entity (ON DELETE CASCADE), in the same statement as the guard.
    return sql_.Execute(
               "DELETE FROM pipelines WHERE id = $1 AND EXISTS (SELECT 1 FROM pipeline_versions v "
               "WHERE v.pipeline_id = $1 AND v.status = 'DRAFT' AND v.body_hash = $2) AND NOT "
               "EXISTS (SELECT 1 FROM pipeline_versions o WHERE o.pipeline_id = $1 AND "
               "o.status <> 'DRAFT')",
               {id, expected_hash}) == 1;
  }

 private:
  std::optional<PipelineRecord> FindOne(const std::string& where,
                                        const std::vector<SqlValue>& params) {
    auto rows = sql_.Query(
        std::string("SELECT ") + kEntityColumns + " FROM pipelines WHERE " + where, params);
    if (rows.empty()) return std::nullopt;
    return ToEntity(rows.front());
  }

  SqlExecutor& sql_;
};

}  // namespace

std::unique_ptr<PipelineStore> OpenPipelineStore(MetadataStore& metadata) {
  return std::make_unique<SqlPipelineStore>(metadata);
}

}  // namespace dp
