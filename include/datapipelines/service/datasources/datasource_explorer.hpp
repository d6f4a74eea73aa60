#pragma once
// The read-only exploration of a datasource's contents (MCP spec §6.2.16–19; datasources.md
// §7, §7A): its schemas, tables, columns and table statistics, a bounded preview of a table's
// rows, and sql_probe — one read-only statement with its plan. Everything goes through the
// registry (DatasourceService): the grant decides visibility and its pools hold the sessions.
// Thread-safe; every call blocks on a driver: run it on the blocking pool.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/connectors/introspection.hpp"
#include "datapipelines/service/datasources/datasource_requests.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/service/user_concurrency.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class DatasourceService;

struct DatasourceExplorerOptions {
  int max_probe_rows = 500;
  int max_probe_timeout_seconds = 30;
  int max_preview_rows = 50;
  // Byte bounds of a probe's and a preview's rows (datapipelines.datasources.max-*-bytes).
  std::size_t max_cell_bytes = 64 * 1024;
  std::size_t max_payload_bytes = 4 * 1024 * 1024;
  // Per-user permits for probe and preview (shared with renders); nullptr = unbounded.
  UserConcurrency* expensive = nullptr;
};

class DatasourceExplorer {
 public:
  DatasourceExplorer(DatasourceService& registry, DatasourceExplorerOptions options = {});

  Json GetSchemas(const Principal& principal, const std::string& name);
  Json GetTables(const Principal& principal, const TableLocator& locator);
  Json GetColumns(const Principal& principal, const TableLocator& locator);
  Json GetTableStats(const Principal& principal, const TableLocator& locator);
  Json PreviewRows(const Principal& principal, const PreviewRequest& request);
  Json Probe(const Principal& principal, const ProbeRequest& request);

  // ---- the learned-semantic layer's live reads (semantics_record validates against these)
  struct LiveCatalog {
    std::vector<TableInfo> tables;
    std::string current_schema;  // "" on a schemaless dialect or when none is reported
  };
  // The unfiltered catalog listing and the session's current schema, on one lease.
  LiveCatalog ReadCatalog(const Principal& principal, const std::string& name);
  // One table's columns; nullopt when the catalog does not list the table in `schema`
  // ("" = schemaless).
  std::optional<std::vector<ColumnSchema>> ReadTableColumns(const Principal& principal,
                                                            const std::string& name,
                                                            const std::string& schema,
                                                            const std::string& table);

 private:
  // sql_probe against the execution's scratch engine (the `tempdb` name).
  Json ScratchProbe(const ProbeRequest& request);

  DatasourceService& registry_;
  DatasourceExplorerOptions options_;
};

}  // namespace dp
