#pragma once
// The datasource registry (MCP spec §6.2.10–12, §6.2.33–34; datasources.md §3, §5, §9; REST
// API §9): the rows, their grants and lifecycle, and the pooled connectors built from them.
// The read-only exploration of a datasource's contents is DatasourceExplorer's. The one place
// their rules live: MCP tools and REST twins call these functions with the caller's
// Principal. Visibility is the grant (D-R7): a datasource not granted to the caller's
// workspace is datasource.not_found, identical to one that does not exist. Every call
// blocks (drivers, the metadata store): run it on the blocking pool.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/connectors/connector_config.hpp"
#include "datapipelines/connectors/introspection.hpp"
#include "datapipelines/service/datasources/datasource_requests.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/util/json.hpp"
#include "datapipelines/util/secret_box.hpp"

namespace dp {

class AuditLog;
class Connector;
class LearnedFactsEnricher;
class DatasourceStore;
class WorkspaceStore;
struct DatasourceRecord;

// What the datasource registry reads from the services built after it. The application
// passes these at construction, bound to services that exist once start-up is done; each is
// optional (an unset one reads as "none").
struct DatasourceServicePorts {
  // The pipelines whose live versions name a datasource (datasource.in_use on delete).
  std::function<std::vector<std::string>(const std::string& name)> users_of;
  // The registered tables of a LAKE datasource, read when its pool is built; without it a
  // LAKE datasource serves no table.
  std::function<std::vector<LakeTable>(const std::string& name)> lake_tables;
  // The learned-fact blocks on List/Get/GetTables/GetColumns (spec §6.2.18a); without it
  // the blocks are empty.
  std::function<LearnedFactsEnricher*()> fact_enricher;
};

struct DatasourceServiceOptions {
  // datapipelines.connectors.duckdb.extension-directory: an operator-provided folder of DuckDB
  // extensions (httpfs, iceberg); "" = none, so s3:// and iceberg lake tables are refused.
  std::string duckdb_extension_directory;
  // datapipelines.connectors.duckdb.threads / memory-limit-mb: each DUCKDB/LAKE engine's bounds
  // (0 = DuckDB's defaults).
  int duckdb_threads = 0;
  int64_t duckdb_memory_limit_mb = 0;
};

// One built connection pool, as the metrics endpoint reports it.
struct PoolUsage {
  std::string datasource;
  int open = 0;  // idle + leased + being opened
  int idle = 0;
  int waiting = 0;
  int max = 0;
  int64_t timeouts = 0;
};

class DatasourceService {
 public:
  static constexpr std::string_view kTempdb = "tempdb";

  // The pools built so far (a datasource nobody used has none); never blocks on a query.
  std::vector<PoolUsage> PoolUsages();

  DatasourceService(DatasourceStore& store, WorkspaceStore& workspaces, AuditLog& audit,
                    SecretBox secrets, DatasourceServiceOptions options = {},
                    DatasourceServicePorts ports = {});
  ~DatasourceService();
  DatasourceService(const DatasourceService&) = delete;
  DatasourceService& operator=(const DatasourceService&) = delete;

  // ---- registry (humans: a super admin, or a ws_admin for its own workspace; never a key)
  Json Create(const Principal& principal, const Json& body);
  Json Update(const Principal& principal, const std::string& name, const Json& body);
  void Delete(const Principal& principal, const std::string& name);
  // A deleted datasource keeps its name (issue 13): restore it, or delete it for good when no
  // pipeline names it. Who may: whoever could have managed it before the delete.
  Json Restore(const Principal& principal, const std::string& name);
  void Purge(const Principal& principal, const std::string& name);
  Json Grant(const Principal& principal, const std::string& name, const std::string& workspace);
  void Revoke(const Principal& principal, const std::string& name, const std::string& workspace);
  Json ListGrants(const Principal& principal, const std::string& name);
  // Every live datasource with its grants, granted here or not (instance admin only).
  Json ListRegistry(const Principal& principal);
  // Operator path (CLI, bootstrap): no principal, instance-level rows. Throws on invalid input.
  Json CreateAsOperator(const Json& body, const std::vector<std::string>& grant_workspaces);
  // datapipelines.bootstrap.datasources-file: creates each absent entry, never updates one.
  // Returns the names created. Throws std::runtime_error (credential-free) on a bad file.
  // An entry's `lake_manifest` (a LAKE datasource's manifest URL) is not a datasource field:
  // it is handed to `on_lake_manifest(name, url)` on every start once the datasource exists,
  // so the lake registry imports it (idempotently).
  std::vector<std::string> BootstrapFromFile(
      const std::string& path,
      const std::function<void(const std::string&, const std::string&)>& on_lake_manifest = {});
  // Every live datasource, for the operator CLI (no credentials).
  Json ListAllForOperator();
  // The operator CLI's grant / ungrant / test (`datapipelines datasources grant|ungrant|test`):
  // the same rules as the super admin's REST verbs, with the shell as the actor.
  Json GrantAsOperator(const std::string& name, const std::string& workspace);
  void RevokeAsOperator(const std::string& name, const std::string& workspace);
  Json TestAsOperator(const std::string& name);
  Json RestoreAsOperator(const std::string& name);
  void PurgeAsOperator(const std::string& name);

  // ---- the registry's reads (MCP tools and their REST twins); the catalog, preview and
  // probe reads are DatasourceExplorer's
  Json List(const Principal& principal, const std::optional<std::string>& dialect);
  // One window of List (or, query.instance_registry, of ListRegistry): the items, how many
  // there are in all and whether more follow the window.
  struct Page {
    Json items = Json::array();
    int64_t total = 0;
    bool has_more = false;
  };
  Page ListPage(const Principal& principal, const DatasourceListQuery& query);
  Json Get(const Principal& principal, const std::string& name);
  Json Test(const Principal& principal, const std::string& name);

  // The executor's view of a node's datasource: the LIVE registry entry (a flip to readonly since
  // the pipeline was saved shows here) and its pooled connector. Visibility is the workspace
  // grant as for every read; an invisible or deleted name is pipeline.node.datasource_not_found.
  struct ExecutionTarget {
    std::string name;
    std::string dialect;
    bool readonly = false;
    std::shared_ptr<Connector> connector;
  };
  ExecutionTarget ResolveForExecution(const std::string& workspace_id, const std::string& name);

  // ---- the learned-semantic layer's live reads (semantics_record validates against these)
  // The dialect of a datasource granted to the principal's workspace; datasource.not_found
  // otherwise (the §5.3 gate, before anything runs).
  std::string RequireGrantedDialect(const Principal& principal, const std::string& name);

  // ---- the dp-lake registry's hooks (LakeTableService, src/lake/)
  // A visible datasource's dialect and the connector configuration its pool is built from
  // (registered lake tables included); datasource.not_found otherwise.
  struct ConfiguredDatasource {
    std::string name;
    std::string dialect;
    ConnectorConfig config;
  };
  ConfiguredDatasource ResolveConfigured(const Principal& principal, const std::string& name);
  // The operator path (bootstrap): any live datasource, no grant check.
  ConfiguredDatasource ResolveConfiguredAsOperator(const std::string& name);
  // Drops the datasource's pools: the next lease rebuilds them from the row and the registry.
  void InvalidateConnector(const std::string& name) { DropConnector(name); }

  // ---- what DatasourceExplorer reads through
  // The record of a datasource granted to the principal's workspace; datasource.not_found
  // otherwise, the same for one that does not exist.
  DatasourceRecord RequireVisible(const Principal& principal, const std::string& name);
  // The datasource's pooled connector, built on first use.
  std::shared_ptr<Connector> ConnectorFor(const DatasourceRecord& record);
  // The datasource's sql_probe sessions: read-only whatever the datasource's mode.
  std::shared_ptr<Connector> ProbeConnectorFor(const DatasourceRecord& record);
  LearnedFactsEnricher* fact_enricher() const {
    return ports_.fact_enricher ? ports_.fact_enricher() : nullptr;
  }

 private:
  struct CachedConnector;

  DatasourceRecord RequireManageable(const Principal& principal, const std::string& name);
  ConnectorConfig ConfigFor(const DatasourceRecord& record);
  void DropConnector(const std::string& name);
  Json View(const DatasourceRecord& record, bool granted);
  DatasourceRecord BuildRecord(const Json& body, const DatasourceRecord* existing);
  Json Insert(DatasourceRecord record, const std::string& actor,
              const std::vector<std::string>& grant_workspace_ids);
  // The deleted row `name`, for restore and purge (datasource.not_found otherwise).
  DatasourceRecord RequireDeleted(const std::string& name);
  // The pipelines whose live versions name it (empty without a usage source).
  std::vector<std::string> UsersOf(const std::string& name);
  void PurgeRow(const std::string& name, const Principal* principal);
  // A soft-deleted row with the name (`taken_by`): the duplicate_name refusal saying which of
  // restore or purge is open.
  [[noreturn]] void RefuseDeletedName(const DatasourceRecord& taken_by);
  // A registered, not deleted datasource whatever the grants (datasource.not_found otherwise).
  DatasourceRecord RequireLive(const std::string& name);
  // Connects, records the health and audits the test (principal null = the operator).
  Json RunTest(const DatasourceRecord& record, const Principal* principal);
  void Audit(const std::string& event, const std::string& name, const Principal* principal,
             Json details = Json::object());

  DatasourceStore& store_;
  WorkspaceStore& workspaces_;
  AuditLog& audit_;
  SecretBox secrets_;
  DatasourceServiceOptions options_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<CachedConnector>> connectors_;
  DatasourceServicePorts ports_;
};

}  // namespace dp
