// DatasourceService core: visibility (the grant), the per-datasource connector cache, the
// entity view, datasources_list / _get / _test and the argument parsing both surfaces share.
#include "datapipelines/service/datasources/datasource_service.hpp"

#include <spdlog/spdlog.h>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/connectors/pool/pool_settings.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/semantics/learned_facts_enricher.hpp"
#include "datapipelines/store/datasource_store.hpp"
#include "datapipelines/store/workspace_store.hpp"
#include "datapipelines/util/clock.hpp"
#include "datasource_rules.hpp"

namespace dp {

// One built connector, valid for the row version it was built from.
struct DatasourceService::CachedConnector {
  int64_t updated_at_ms = 0;
  std::shared_ptr<Connector> connector;
  std::shared_ptr<Connector> probe_connector;  // read-only sessions for sql_probe, built lazily
};

namespace {

DomainError DatasourceNotFound(const std::string& name) {
  return DomainError(errc::kDatasourceNotFound,
                     "No datasource named '" + name + "' is granted to this workspace.",
                     Json{{"name", name}});
}

}  // namespace

DatasourceService::DatasourceService(DatasourceStore& store, WorkspaceStore& workspaces,
                                     AuditLog& audit, SecretBox secrets,
                                     DatasourceServiceOptions options, DatasourceServicePorts ports)
    : store_(store),
      workspaces_(workspaces),
      audit_(audit),
      secrets_(std::move(secrets)),
      options_(options),
      ports_(std::move(ports)) {}

DatasourceService::~DatasourceService() = default;

DatasourceRecord DatasourceService::RequireVisible(const Principal& principal,
                                                   const std::string& name) {
  // Not granted and nonexistent are one answer, so nothing about a datasource leaks (D-R7).
  if (principal.workspace_id.empty()) throw DatasourceNotFound(name);
  auto record = store_.FindDatasource(name);
  // Deleted through another instance: this one's pool goes too.
  if (record && record->is_deleted) DropConnector(name);
  if (!record || record->is_deleted || !store_.IsDatasourceGranted(name, principal.workspace_id)) {
    throw DatasourceNotFound(name);
  }
  return *record;
}

DatasourceService::ExecutionTarget DatasourceService::ResolveForExecution(
    const std::string& workspace_id, const std::string& name) {
  auto record = store_.FindDatasource(name);
  if (!record || record->is_deleted || workspace_id.empty() ||
      !store_.IsDatasourceGranted(name, workspace_id)) {
    throw DomainError(errc::kNodeDatasourceNotFound,
                      "Datasource '" + name +
                          "' resolved when the pipeline was saved but is not "
                          "visible to this workspace now.",
                      Json{{"datasource", name}});
  }
  return ExecutionTarget{record->name, record->dialect, record->readonly, ConnectorFor(*record)};
}

std::vector<PoolUsage> DatasourceService::PoolUsages() {
  std::vector<std::pair<std::string, std::shared_ptr<Connector>>> built;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [name, cached] : connectors_) {
      if (cached->connector) built.emplace_back(name, cached->connector);
    }
  }
  std::vector<PoolUsage> usages;
  for (const auto& [name, connector] : built) {
    ConnectionPool& pool = connector->pool();
    usages.push_back({name, pool.total(), pool.idle(), pool.waiting(), pool.settings().max_size,
                      pool.timeouts()});
  }
  return usages;
}

std::shared_ptr<Connector> DatasourceService::ProbeConnectorFor(const DatasourceRecord& record) {
  std::shared_ptr<Connector> base = ConnectorFor(record);  // builds or refreshes the entry
  ConnectorConfig config = base->config();
  config.probe = true;
  std::lock_guard lock(mutex_);
  auto it = connectors_.find(record.name);
  if (it == connectors_.end() || it->second->connector != base) {  // replaced meanwhile
    return std::shared_ptr<Connector>(MakeConnector(config));
  }
  if (!it->second->probe_connector) {
    it->second->probe_connector = std::shared_ptr<Connector>(MakeConnector(config));
  }
  return it->second->probe_connector;
}

std::shared_ptr<Connector> DatasourceService::ConnectorFor(const DatasourceRecord& record) {
  std::lock_guard lock(mutex_);
  auto it = connectors_.find(record.name);
  if (it != connectors_.end() && it->second->updated_at_ms == record.updated_at_ms) {
    return it->second->connector;
  }
  ConnectorConfig config = ConfigFor(record);
  auto entry = std::make_shared<CachedConnector>();
  entry->updated_at_ms = record.updated_at_ms;
  entry->connector = std::shared_ptr<Connector>(MakeConnector(config));
  // Replacing the map entry releases the old connector once in-flight calls return theirs.
  connectors_[record.name] = entry;
  Audit("datasource.pool_build", record.name, nullptr);
  return entry->connector;
}

ConnectorConfig DatasourceService::ConfigFor(const DatasourceRecord& record) {
  ConnectorConfig config;
  config.dialect = ParseDialectOrThrow(record.dialect);
  auto failures = datasource_rules::CheckJdbcUrl(config.dialect, record.jdbc_url, config);
  auto more = datasource_rules::CheckProperties(config.dialect, record.properties, config);
  failures.insert(failures.end(), more.begin(), more.end());
  if (!failures.empty()) {
    throw DomainError(failures.front().code, failures.front().message,
                      Json{{"datasource", record.name}, {"field", failures.front().field}});
  }
  config.username = record.username;
  try {
    if (!record.password_encrypted.empty()) {
      config.password = secrets_.Open(record.password_encrypted, record.name);
    }
  } catch (const SecretBoxError& error) {
    spdlog::error("datasource {}: stored credential does not open: {}", record.name, error.what());
    throw DomainError(errc::kInternal,
                      "The stored credential of datasource '" + record.name +
                          "' cannot be decrypted with this server's key.",
                      Json{{"datasource", record.name}});
  }
  config.readonly = record.readonly;
  // datasources.md §5.5: the datasource's own timeout, else the executor default (60 s).
  config.query_timeout_seconds = record.query_timeout_seconds.value_or(60);
  if (config.dialect == Dialect::kDuckdb || config.dialect == Dialect::kLake) {
    config.duckdb_extension_directory = options_.duckdb_extension_directory;
    config.duckdb_threads = options_.duckdb_threads;
    config.duckdb_memory_limit_mb = options_.duckdb_memory_limit_mb;
  }
  if (config.dialect == Dialect::kLake && ports_.lake_tables)
    config.lake_tables = ports_.lake_tables(record.name);
  return config;
}

DatasourceService::ConfiguredDatasource DatasourceService::ResolveConfigured(
    const Principal& principal, const std::string& name) {
  DatasourceRecord record = RequireVisible(principal, name);
  return ConfiguredDatasource{record.name, record.dialect, ConfigFor(record)};
}

DatasourceService::ConfiguredDatasource DatasourceService::ResolveConfiguredAsOperator(
    const std::string& name) {
  auto record = store_.FindDatasource(name);
  if (!record || record->is_deleted) throw DatasourceNotFound(name);
  return ConfiguredDatasource{record->name, record->dialect, ConfigFor(*record)};
}

void DatasourceService::DropConnector(const std::string& name) {
  std::shared_ptr<CachedConnector> doomed;
  {
    std::lock_guard lock(mutex_);
    auto it = connectors_.find(name);
    if (it == connectors_.end()) return;
    doomed = std::move(it->second);
    connectors_.erase(it);
  }
}

void DatasourceService::Audit(const std::string& event, const std::string& name,
                              const Principal* principal, Json details) {
  dp::AuditEvent row;
  row.event = event;
  if (principal) {
    row.user_id = principal->user_id;
    row.key_id = principal->key_id;
    row.workspace_id = principal->workspace_id;
  }
  details["datasource"] = name;
  details["actor"] = principal ? "user" : "system";
  row.details = std::move(details);
  audit_.Record(std::move(row));
}

namespace {

// The additive last_test field (datasources.md §8.1B): null = never tested.
Json LastTestView(const std::optional<DatasourceLastTest>& test) {
  if (!test) return Json();  // never tested
  return Json{{"tested_at", FormatIso8601Ms(test->tested_at_ms)},
              {"ok", test->ok},
              {"latency_ms", test->latency_ms},
              {"error_code", test->error_code.empty() ? Json() : Json(test->error_code)}};
}

}  // namespace

Json DatasourceService::View(const DatasourceRecord& record, bool granted) {
  Json view{{"name", record.name}, {"display_name", record.display_name}};
  if (record.description) view["description"] = *record.description;
  view["dialect"] = record.dialect;
  view["jdbc_url"] = record.jdbc_url;
  view["username"] = record.username;
  view["password_set"] = !record.password_encrypted.empty();
  if (record.query_timeout_seconds) view["query_timeout_seconds"] = *record.query_timeout_seconds;
  Json hikari = record.properties.is_object() && record.properties.contains("hikari")
                    ? record.properties["hikari"]
                    : Json::object();
  try {
    view["pool"] = PoolSettings::FromHikari(hikari).ToHikari();
  } catch (const DomainError&) {
    view["pool"] = hikari;
  }
  view["properties"] = record.properties;
  view["readonly"] = record.readonly;
  view["granted"] = granted;
  view["last_test"] = LastTestView(record.last_test);
  if (!record.workspace_id.empty()) {
    if (auto ws = workspaces_.FindWorkspaceById(record.workspace_id)) view["workspace"] = ws->name;
  }
  if (!record.include_schemas.empty()) {
    view["introspection_include_schemas"] = record.include_schemas;
  }
  // Learned facts and workspace definitions (§6.2.18a): [] until the enricher fills them.
  view["facts"] = Json::array();
  view["definitions"] = Json::array();
  return view;
}

Json DatasourceService::List(const Principal& principal,
                             const std::optional<std::string>& dialect) {
  EnforceAccess(principal, Operation::kDatasourcesList);
  Json out = Json::array();
  if (principal.workspace_id.empty()) return out;
  for (const auto& record : store_.ListDatasourcesGrantedTo(principal.workspace_id)) {
    if (dialect && !dialect->empty() && record.dialect != *dialect) continue;
    Json entry = View(record, true);
    if (LearnedFactsEnricher* enricher = fact_enricher())
      enricher->DecorateDatasource(principal, record.name, entry);
    out.push_back(std::move(entry));
  }
  return out;
}

DatasourceService::Page DatasourceService::ListPage(const Principal& principal,
                                                    const DatasourceListQuery& query) {
  Json all = query.instance_registry ? ListRegistry(principal) : List(principal, query.dialect);
  Page page;
  const ListWindow::Slice slice = query.window.Of(all.size());
  for (std::size_t i = slice.begin; i < slice.end; ++i) page.items.push_back(std::move(all[i]));
  page.total = static_cast<int64_t>(all.size());
  page.has_more = slice.has_more;
  return page;
}

Json DatasourceService::Get(const Principal& principal, const std::string& name) {
  EnforceAccess(principal, Operation::kDatasourcesGet);
  Json entry = View(RequireVisible(principal, name), true);
  if (LearnedFactsEnricher* enricher = fact_enricher())
    enricher->DecorateDatasource(principal, name, entry);
  return entry;
}

std::string DatasourceService::RequireGrantedDialect(const Principal& principal,
                                                     const std::string& name) {
  return RequireVisible(principal, name).dialect;
}

Json DatasourceService::Test(const Principal& principal, const std::string& name) {
  EnforceAccess(principal, Operation::kDatasourcesTest);
  // A signed-in super admin administers the registry itself: any live datasource, granted to
  // the active workspace or not (one just registered, before any grant). A key, even a super
  // admin's, stays inside its workspace's grants: an agent learns nothing of the registry.
  DatasourceRecord record = principal.super_admin && principal.via_session
                                ? RequireLive(name)
                                : RequireVisible(principal, name);
  return RunTest(record, &principal);
}

Json DatasourceService::TestAsOperator(const std::string& name) {
  return RunTest(RequireLive(name), nullptr);
}

DatasourceRecord DatasourceService::RequireLive(const std::string& name) {
  auto record = store_.FindDatasource(name);
  if (record && record->is_deleted) DropConnector(name);
  if (!record || record->is_deleted) throw DatasourceNotFound(name);
  return *record;
}

Json DatasourceService::RunTest(const DatasourceRecord& record, const Principal* principal) {
  const std::string& name = record.name;
  auto connector = ConnectorFor(record);
  ConnectionTestResult result = connector->Test();
  if (!result.connected) {
    result.error = datasource_rules::Translate(DomainError(errc::kNodeQueryFailed, result.error),
                                               name, connector->config())
                       .what();
  }
  Json payload = result.ToJson();
  // Every surface's test lands here, so every test is recorded: the outcome and its code, never
  // the message (datasources.md §8.1B; the text may name a host or a user).
  store_.SetDatasourceLastTest(
      name, DatasourceLastTest{result.tested_at_ms, result.connected, result.latency_ms,
                               result.connected ? "" : result.error_class});
  Audit("datasource.connection_test", name, principal, Json{{"connected", result.connected}});
  return payload;
}

}  // namespace dp
