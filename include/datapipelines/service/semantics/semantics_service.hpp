#pragma once
// The learned semantic layer's application service (MCP spec §6.2.37–39, §6.2.18a; the
// learned-semantic-layer design): semantics_record in the validation order of §6.2.37,
// semantics_list, semantics_retire, and — as the LearnedFactsEnricher DatasourceService calls —
// the facts/definitions blocks and the read-time drift check. The one writer of learned facts.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/semantics/fact_ref.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/service/semantics/learned_facts_enricher.hpp"
#include "datapipelines/store/learned_fact_store.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class AuditLog;
class DatasourceExplorer;
class DatasourceService;
class PipelineStore;

struct RecordFactRequest {
  std::string scope;
  std::string datasource;
  std::string kind;
  std::string fact;
  std::vector<FactRef> refs;
  std::string evidence_sql;      // "" = none
  std::string evidence_summary;  // "" = none (the probe's first rows then)
  std::string source_pipeline_id;
  int source_version = 0;
  std::string supersedes;
  std::string via = "mcp";  // the write surface: mcp | session | api_key
  std::string correlation_id;

  // From the semantics_record arguments (schema-validated already).
  static RecordFactRequest FromJson(const Json& arguments);
};

struct ListFactsRequest {
  std::string datasource;
  std::string table;  // "" = every table
  std::string scope;  // "" = both
  bool include_retired = false;
  std::optional<int64_t> since_ms;

  // request.validation.invalid for a `since` that is not an ISO-8601 instant.
  static ListFactsRequest FromJson(const Json& arguments);
};

struct SemanticsServiceOptions {
  int evidence_rows = 5;              // the probe rows kept for the summary
  int evidence_timeout_seconds = 10;  // clamped by the probe's own maximum
};

class SemanticsService : public LearnedFactsEnricher {
 public:
  SemanticsService(LearnedFactStore& facts, DatasourceService& datasources,
                   DatasourceExplorer& explorer, PipelineStore& pipelines, AuditLog& audit,
                   SemanticsServiceOptions options = {});

  Json Record(const Principal& principal, const RecordFactRequest& request);
  Json List(const Principal& principal, const ListFactsRequest& request);
  Json Retire(const Principal& principal, const std::string& id, const std::string& reason,
              const std::string& correlation_id = "");

  // LearnedFactsEnricher
  void DecorateDatasource(const Principal& reader, const std::string& datasource,
                          Json& entry) override;
  void DecorateTables(const Principal& reader, const std::string& datasource,
                      const std::vector<TableInfo>& listed, bool complete, Json& tables) override;
  void DecorateColumns(const Principal& reader, const std::string& datasource,
                       const std::string& schema, const std::string& table,
                       const std::vector<ColumnSchema>& columns, Json& out) override;
  void TableGone(const Principal& reader, const std::string& datasource, const std::string& schema,
                 const std::string& table) override;

 private:
  class View;

  // Writes the demotion when it is one (idempotent, one-way) and mirrors it on `fact`.
  void ApplyDemotion(LearnedFactRecord& fact, const std::string& trust, const std::string& drift);
  Json RunEvidence(const Principal& principal, const std::string& datasource,
                   const std::string& dialect, const std::string& sql);
  void Audit(const std::string& event, const Principal& principal,
             const std::string& correlation_id, Json details);

  LearnedFactStore& facts_;
  DatasourceService& datasources_;
  DatasourceExplorer& explorer_;
  PipelineStore& pipelines_;
  AuditLog& audit_;
  SemanticsServiceOptions options_;
};

}  // namespace dp
