// Learned facts (migration 0006), written once in the portable subset over the metadata
// database's connection. Each state change is one statement guarded by the state it expects.
#include <stdexcept>
#include <string>

#include "datapipelines/store/learned_fact_store.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/sql_executor.hpp"
#include "sql_cells.hpp"

namespace dp {

using sql_cells::Int;
using sql_cells::NullIfEmpty;
using sql_cells::NullIfZero;
using sql_cells::Text;

namespace {

constexpr const char* kFactColumns =
    "id, scope, workspace_id, datasource_name, kind, fact, refs_json, evidence_sql, "
    "evidence_summary, trust, drift, schema_fingerprint, recorded_by, recorded_via, recorded_in, "
    "source_pipeline_id, source_version, recorded_at_ms, supersedes, retired_at_ms, "
    "retired_reason";

LearnedFactRecord ToFactRecord(const SqlRow& r) {
  LearnedFactRecord f;
  f.id = Text(r, 0);
  f.scope = Text(r, 1);
  f.workspace_id = Text(r, 2);
  f.datasource = Text(r, 3);
  f.kind = Text(r, 4);
  f.fact = Text(r, 5);
  f.refs = Json::parse(Text(r, 6), nullptr, /*allow_exceptions=*/false);
  if (!f.refs.is_array()) f.refs = Json::array();
  f.evidence_sql = Text(r, 7);
  f.evidence_summary = Text(r, 8);
  f.trust = Text(r, 9);
  f.drift = Text(r, 10);
  f.fingerprint = Text(r, 11);
  f.recorded_by = Text(r, 12);
  f.recorded_via = Text(r, 13);
  f.recorded_in = Text(r, 14);
  f.source_pipeline_id = Text(r, 15);
  f.source_version = static_cast<int>(Int(r, 16));
  f.recorded_at_ms = Int(r, 17);
  f.supersedes = Text(r, 18);
  f.retired_at_ms = Int(r, 19);
  f.retired_reason = Text(r, 20);
  return f;
}

class SqlLearnedFactStore : public LearnedFactStore {
 public:
  explicit SqlLearnedFactStore(SqlExecutor& sql) : sql_(sql) {}

  void Insert(const LearnedFactRecord& f) override {
    sql_.Execute(std::string("INSERT INTO learned_facts (") + kFactColumns +
                     ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, "
                     "$16, $17, $18, $19, $20, $21)",
                 {f.id,
                  f.scope,
                  NullIfEmpty(f.workspace_id),
                  f.datasource,
                  f.kind,
                  f.fact,
                  f.refs.dump(),
                  NullIfEmpty(f.evidence_sql),
                  NullIfEmpty(f.evidence_summary),
                  f.trust,
                  NullIfEmpty(f.drift),
                  f.fingerprint,
                  f.recorded_by,
                  f.recorded_via,
                  f.recorded_in,
                  NullIfEmpty(f.source_pipeline_id),
                  NullIfZero(f.source_version),
                  f.recorded_at_ms,
                  NullIfEmpty(f.supersedes),
                  NullIfZero(f.retired_at_ms),
                  NullIfEmpty(f.retired_reason)});
  }

  std::optional<LearnedFactRecord> Find(const std::string& id) override {
    auto rows = sql_.Query(
        std::string("SELECT ") + kFactColumns + " FROM learned_facts WHERE id = $1", {id});
    if (rows.empty()) return std::nullopt;
    return ToFactRecord(rows.front());
  }

  std::vector<LearnedFactRecord> ListVisible(const std::string& datasource,
                                             const std::string& reader_workspace_id,
                                             bool include_retired) override {
    // The one visibility predicate (metadata-db §4.18).
    std::string sql = std::string("SELECT ") + kFactColumns +
                      " FROM learned_facts WHERE datasource_name = $1 AND (scope = 'DATASOURCE' "
                      "OR workspace_id = $2)";
    if (!include_retired) sql += " AND retired_at_ms IS NULL";
    sql += " ORDER BY recorded_at_ms, id";
    std::vector<LearnedFactRecord> out;
    for (const auto& row : sql_.Query(sql, {datasource, reader_workspace_id})) {
      out.push_back(ToFactRecord(row));
    }
    return out;
  }

  std::optional<std::string> FindLiveDuplicate(const LearnedFactRecord& f) override {
    // workspace_id is NULL for a DATASOURCE fact: '' stands in for it on both sides.
    auto rows = sql_.Query(
        "SELECT id FROM learned_facts WHERE scope = $1 AND COALESCE(workspace_id, '') = $2 AND "
        "datasource_name = $3 AND kind = $4 AND refs_json = $5 AND fact = $6 AND retired_at_ms "
        "IS NULL ORDER BY recorded_at_ms LIMIT 1",
        {f.scope, f.workspace_id, f.datasource, f.kind, f.refs.dump(), f.fact});
    if (rows.empty()) return std::nullopt;
    return Text(rows.front(), 0);
  }

  bool Demote(const std::string& id, const std::string& trust, const std::string& drift) override {
    const char* guard =
        trust == "stale" ? "('retired', 'stale')" : "('retired', 'stale', 'needs_review')";
    return sql_.Execute(std::string("UPDATE learned_facts SET trust = $2, drift = $3 WHERE id = "
                                    "$1 AND trust NOT IN ") +
                            guard,
                        {id, trust, drift}) == 1;
  }

  bool Retire(const std::string& id, const std::string& reason, int64_t at_ms) override {
    return sql_.Execute(
               "UPDATE learned_facts SET trust = 'retired', retired_at_ms = $2, retired_reason = "
               "$3 WHERE id = $1 AND retired_at_ms IS NULL",
               {id, at_ms, reason}) == 1;
  }

 private:
  SqlExecutor& sql_;
};

}  // namespace

std::unique_ptr<LearnedFactStore> OpenLearnedFactStore(MetadataStore& metadata) {
  return std::make_unique<SqlLearnedFactStore>(metadata);
}

}  // namespace dp
