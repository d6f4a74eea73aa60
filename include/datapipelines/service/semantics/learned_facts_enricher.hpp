#pragma once
// The learned-fact blocks on the datasource reads (spec §6.2.18a, learned-semantic-layer design
// D-S7, §6): DatasourceService calls this port with what it just read, so the facts arrive where
// the agent already looks — on MCP and on the REST twins from the same code. SemanticsService
// implements it; the drift demotions it computes are written back before the answer is served.
#include <string>
#include <vector>

#include "datapipelines/connectors/introspection.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class LearnedFactsEnricher {
 public:
  virtual ~LearnedFactsEnricher() = default;

  // datasources_list / _get: `facts` (window and sampling) and `definitions` (this workspace's
  // rules) on one datasource entry, served as stored — this read opens no connection.
  virtual void DecorateDatasource(const Principal& reader, const std::string& datasource,
                                  Json& entry) = 0;
  // datasources_get_tables: table-grain facts (and every stale one) on each listed entry; a
  // COMPLETE listing (no filter, not truncated) also marks facts whose table is not listed.
  virtual void DecorateTables(const Principal& reader, const std::string& datasource,
                              const std::vector<TableInfo>& listed, bool complete,
                              Json& tables) = 0;
  // datasources_get_columns: drift from the columns just read, then each column's facts.
  // `schema` is the namespace the columns were read in ("" on a schemaless dialect).
  virtual void DecorateColumns(const Principal& reader, const std::string& datasource,
                               const std::string& schema, const std::string& table,
                               const std::vector<ColumnSchema>& columns, Json& out) = 0;
  // datasources_get_columns refused the table as not found: facts on it are stale.
  virtual void TableGone(const Principal& reader, const std::string& datasource,
                         const std::string& schema, const std::string& table) = 0;
};

}  // namespace dp
