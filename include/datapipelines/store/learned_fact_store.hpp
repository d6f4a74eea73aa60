#pragma once
// The learned-fact store port (metadata-db §4.18, migration 0006): rows written by
// SemanticsService alone. No business rule lives here beyond the two the rows themselves
// state: visibility is one predicate (every DATASOURCE fact on the datasource, plus the
// reader's own WORKSPACE facts), and trust only ever moves down the drift ladder by machine.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

class MetadataStore;

struct LearnedFactRecord {
  std::string id;            // uuid
  std::string scope;         // DATASOURCE | WORKSPACE
  std::string workspace_id;  // "" for a DATASOURCE fact
  std::string datasource;
  std::string kind;
  std::string fact;
  Json refs = Json::array();     // normalised [{schema, table, column}]
  std::string evidence_sql;      // "" = none
  std::string evidence_summary;  // "" = none
  std::string trust;
  std::string drift;        // "" = none
  std::string fingerprint;  // "tableKey=sha256;…"
  std::string recorded_by;  // user id
  std::string recorded_via;
  std::string recorded_in;  // the active workspace at record time (provenance, not visibility)
  std::string source_pipeline_id;  // "" = none
  int source_version = 0;          // 0 = none
  int64_t recorded_at_ms = 0;
  std::string supersedes;     // "" = none
  int64_t retired_at_ms = 0;  // 0 = live
  std::string retired_reason;
};

class LearnedFactStore {
 public:
  virtual ~LearnedFactStore() = default;

  virtual void Insert(const LearnedFactRecord& fact) = 0;
  virtual std::optional<LearnedFactRecord> Find(const std::string& id) = 0;
  // The facts on `datasource` the reader's workspace can see, oldest first.
  virtual std::vector<LearnedFactRecord> ListVisible(const std::string& datasource,
                                                     const std::string& reader_workspace_id,
                                                     bool include_retired) = 0;
  // A LIVE fact with the same (scope, workspace, datasource, kind, refs, fact); its id.
  virtual std::optional<std::string> FindLiveDuplicate(const LearnedFactRecord& fact) = 0;
  // Demotes to needs_review or stale with the reason, only when that is lower than the row's
  // trust now (never out of retired, never back up); false when nothing changed.
  virtual bool Demote(const std::string& id, const std::string& trust,
                      const std::string& drift) = 0;
  // live → retired; false when the row was already retired (or is unknown).
  virtual bool Retire(const std::string& id, const std::string& reason, int64_t at_ms) = 0;
};

// The SQL adapter over the metadata store's own connection (SQLite or PostgreSQL).
std::unique_ptr<LearnedFactStore> OpenLearnedFactStore(MetadataStore& metadata);

}  // namespace dp
