#pragma once
// The dp-lake registry service (spec §6.2.29–31, datasources.md §8C.1, REST §9.8): register,
// import and unregister the tables a LAKE datasource serves. The one place their rules live —
// the lake_tables_* MCP tools and the REST twins call it with the caller's Principal. Every
// input is validated before anything is written (bad input changes nothing), a candidate
// table is proven readable on a scratch engine built exactly like the datasource's pool
// before its row is stored, and every successful write drops the datasource's pools so the
// next lease serves the new catalog.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/connectors/duckdb/lake_table.hpp"
#include "datapipelines/service/identity/operation.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class AuditLog;
class DatasourceService;
class LakeTableStore;

class LakeTableService {
 public:
  LakeTableService(LakeTableStore& store, DatasourceService& datasources, AuditLog& audit);

  // §6.2.29: {name, namespace, table, format, location, partition_column?} → the stored row.
  Json Register(const Principal& principal, const Json& arguments);
  // §6.2.30: {name, tables? | manifest_url?, namespace?, publish_prefix?} →
  // {registered, registered_count, already_registered, already_registered_count}.
  Json Import(const Principal& principal, const Json& arguments);
  // The operator path (the datasources bootstrap file's `lake_manifest`): Import of one
  // manifest URL with no caller, recorded as the system; the same validation and refusals.
  Json ImportAsOperator(const std::string& datasource, const std::string& manifest_url);
  // §6.2.31: {name, namespace, table} → {datasource, table, deleted: true}.
  Json Unregister(const Principal& principal, const Json& arguments);
  // REST GET …/lake-tables: the registry's own rows.
  Json List(const Principal& principal, const std::string& datasource);

  // The registered tables of one datasource (the connector's view source).
  std::vector<LakeTable> TablesOf(const std::string& datasource);

  // Parses a namespace given as a segments array or the dotted shorthand; throws
  // datasource.validation.lake_namespace_invalid.
  static std::vector<std::string> ParseNamespace(const Json& value);

 private:
  struct Target;
  // The operation's floor, then the datasource: configured and of the LAKE dialect.
  Target RequireLake(const Principal& principal, Operation operation, const std::string& name);
  Json ImportInto(const Principal& principal, const Target& target, const Json& arguments);
  LakeTable ValidateEntry(const Target& target, const Json& ns, const Json& table,
                          const Json& format, const Json& location, const Json& partition);
  void Preflight(const Target& target, const LakeTable& table);
  Json Store(const Principal& principal, const Target& target, const LakeTable& table);
  Json ReadManifest(const Target& target, const std::string& url);
  void Audit(const std::string& event, const Principal& principal, Json details);

  LakeTableStore& store_;
  DatasourceService& datasources_;
  AuditLog& audit_;
};

}  // namespace dp
