#include "datapipelines/lake/lake_table_service.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/lake/lake_table_store.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/util/clock.hpp"

namespace dp {

struct LakeTableService::Target {
  std::string name;
  ConnectorConfig config;
};

namespace {

constexpr std::size_t kMaxSegmentChars = 64;
constexpr std::size_t kMaxNamespaceSegments = 9;
constexpr std::size_t kMaxImportTables = 500;
constexpr std::uintmax_t kMaxManifestBytes = 1 << 20;

// The pipeline/template segment grammar without '.': [a-z0-9][a-z0-9_-]*, at most 64.
bool IsSegment(std::string_view segment) {
  if (segment.empty() || segment.size() > kMaxSegmentChars) return false;
  for (std::size_t i = 0; i < segment.size(); ++i) {
    char c = segment[i];
    bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!alnum && (i == 0 || (c != '_' && c != '-'))) return false;
  }
  return true;
}

[[noreturn]] void Fail(const ErrorCode& code, const std::string& message, Json details) {
  throw DomainError(code, message, std::move(details));
}

std::string RequiredString(const Json& arguments, const std::string& field) {
  auto it = arguments.find(field);
  if (it == arguments.end() || !it->is_string() || it->get<std::string>().empty()) {
    throw DomainError(errc::kRequestInvalid, "'" + field + "' is required (a string).",
                      Json{{"field", field}});
  }
  return it->get<std::string>();
}

std::string Dotted(const std::vector<std::string>& ns, const std::string& name) {
  std::string out;
  for (const auto& segment : ns) out += segment + ".";
  return out + name;
}

}  // namespace

LakeTableService::LakeTableService(LakeTableStore& store, DatasourceService& datasources,
                                   AuditLog& audit)
    : store_(store), datasources_(datasources), audit_(audit) {}

std::vector<std::string> LakeTableService::ParseNamespace(const Json& value) {
  std::vector<std::string> segments;
  if (value.is_string()) {
    std::string text = value.get<std::string>();
    std::size_t start = 0;
    while (true) {
      std::size_t dot = text.find('.', start);
      segments.push_back(text.substr(start, dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
  } else if (value.is_array()) {
    for (const auto& segment : value) {
      if (!segment.is_string())
        segments.push_back("");
      else
        segments.push_back(segment.get<std::string>());
    }
  } else {
    Fail(errc::kLakeNamespaceInvalid,
         "namespace is required: an array of segments or the dotted shorthand ('acme.analytics').",
         Json{{"field", "namespace"}});
  }
  if (segments.empty() || segments.size() > kMaxNamespaceSegments) {
    Fail(errc::kLakeNamespaceInvalid, "a namespace has 1 to 9 segments.",
         Json{{"field", "namespace"}});
  }
  for (const auto& segment : segments) {
    if (!IsSegment(segment)) {
      Fail(errc::kLakeNamespaceInvalid,
           "namespace segment '" + segment +
               "' is invalid: lowercase letters, digits, '_' and '-', starting with a letter or "
               "digit, at most 64 characters, no '.'.",
           Json{{"field", "namespace"}, {"segment", segment}});
    }
  }
  return segments;
}

LakeTableService::Target LakeTableService::RequireLake(const Principal& principal,
                                                       Operation operation,
                                                       const std::string& name) {
  EnforceAccess(principal, operation);
  auto resolved = datasources_.ResolveConfigured(principal, name);
  if (resolved.dialect != "LAKE") {
    Fail(errc::kLakeDialectRequired,
         "Datasource '" + name + "' is a " + resolved.dialect +
             " datasource; only a LAKE datasource has a table registry.",
         Json{{"datasource", name}, {"dialect", resolved.dialect}});
  }
  return Target{resolved.name, resolved.config};
}

LakeTable LakeTableService::ValidateEntry(const Target& target, const Json& ns, const Json& table,
                                          const Json& format, const Json& location,
                                          const Json& partition) {
  LakeTable out;
  out.ns = ParseNamespace(ns);
  if (!table.is_string() || !IsSegment(table.get<std::string>())) {
    Fail(errc::kLakeNameInvalid,
         "table must be one segment: lowercase letters, digits, '_' and '-', at most 64.",
         Json{{"field", "table"}});
  }
  out.name = table.get<std::string>();
  if (!format.is_string() || (format != "parquet" && format != "iceberg")) {
    Fail(errc::kLakeFormatInvalid, "format must be parquet or iceberg.", Json{{"field", "format"}});
  }
  out.format = format.get<std::string>();
  if (!location.is_string()) {
    Fail(errc::kLakeLocationInvalid, "location is required (a string).",
         Json{{"field", "location"}});
  }
  out.location = location.get<std::string>();
  if (auto problem = LakeLocationProblem(out.location, target.config.lake_root)) {
    Fail(errc::kLakeLocationInvalid, "location '" + out.location + "' is refused: " + *problem,
         Json{{"field", "location"}});
  }
  if (!partition.is_null()) {
    if (!partition.is_string() || !IsSegment(partition.get<std::string>())) {
      Fail(errc::kRequestInvalid,
           "partition_column must be a column name: lowercase letters, digits, '_' and '-'.",
           Json{{"field", "partition_column"}});
    }
    out.partition_column = partition.get<std::string>();
  }
  // A location this build cannot serve is refused now, at registration — never at 3 a.m.
  bool s3 = out.location.rfind("s3://", 0) == 0;
  if ((s3 || out.format == "iceberg") && target.config.duckdb_extension_directory.empty()) {
    std::string needs = s3 ? "s3:// locations need DuckDB's httpfs extension"
                           : "iceberg tables need DuckDB's iceberg extension";
    Fail(errc::kLakeExtensionUnavailable,
         needs +
             ", which this server cannot load: no extension directory is configured "
             "(datapipelines.connectors.duckdb.extension-directory) and the server never "
             "downloads extensions. Register a file:// location under the datasource's root, or "
             "ask the operator to provide the extension.",
         Json{{"field", s3 ? "location" : "format"}, {"extension", s3 ? "httpfs" : "iceberg"}});
  }
  if (out.ns.size() > 2) {
    Fail(errc::kLakeNamespaceInvalid,
         "this server maps a lake namespace of one or two segments onto the engine "
         "(catalog.schema); a deeper one cannot be served.",
         Json{{"field", "namespace"}});
  }
  return out;
}

void LakeTableService::Preflight(const Target& target, const LakeTable& table) {
  // A scratch engine built exactly like the datasource's pool, holding only this table.
  ConnectorConfig scratch = target.config;
  scratch.lake_tables = {table};
  scratch.pool.max_size = 1;
  std::string failure;
  try {
    auto connector = MakeConnector(scratch);
    auto session = connector->Open();
    auto errors = connector->lake_view_errors();
    if (auto it = errors.find(table.QualifiedName()); it != errors.end()) {
      throw DomainError(errc::kLakeTableUnreadable, it->second,
                        Json{{"driver_message", it->second}});
    }
    QueryOptions options;
    options.max_rows = 1;
    options.timeout_ms = 30000;
    std::string sql = "SELECT * FROM " + connector->QuoteQualified(table.ns) + "." +
                      connector->QuoteIdentifier(table.name) + " LIMIT 1";
    session->Query(sql, {}, options, [](const RowView&) { return true; });
  } catch (const DomainError& error) {
    failure = error.what();
    auto driver = error.details().find("driver_message");
    if (driver != error.details().end() && driver->is_string())
      failure = driver->get<std::string>();
  }
  if (!failure.empty()) {
    Fail(errc::kLakeTableUnreadable,
         "Table '" + table.QualifiedName() + "' cannot be read at '" + table.location +
             "': " + failure.substr(0, 2000),
         Json{{"table", table.QualifiedName()}, {"location", table.location}});
  }
}

Json LakeTableService::Store(const Principal& principal, const Target& target,
                             const LakeTable& table) {
  LakeTableRecord record;
  record.datasource = target.name;
  record.table = table;
  record.registered_by = principal.user_id.empty() ? "system" : principal.user_id;
  record.registered_at_ms = NowMs();
  try {
    store_.Insert(record);
  } catch (const DuplicateKeyError&) {
    Fail(errc::kLakeTableDuplicate,
         "Table '" + table.QualifiedName() + "' is already registered on '" + target.name + "'.",
         Json{{"datasource", target.name}, {"table", table.QualifiedName()}});
  }
  return record.ToJson();
}

Json LakeTableService::Register(const Principal& principal, const Json& arguments) {
  Target target =
      RequireLake(principal, Operation::kLakeTablesRegister, RequiredString(arguments, "name"));
  LakeTable table =
      ValidateEntry(target, arguments.value("namespace", Json()), arguments.value("table", Json()),
                    arguments.value("format", Json()), arguments.value("location", Json()),
                    arguments.value("partition_column", Json()));
  for (const auto& existing : store_.List(target.name)) {
    if (existing.table.ns == table.ns && existing.table.name == table.name) {
      Fail(errc::kLakeTableDuplicate,
           "Table '" + table.QualifiedName() + "' is already registered on '" + target.name + "'.",
           Json{{"datasource", target.name}, {"table", table.QualifiedName()}});
    }
  }
  Preflight(target, table);
  Json row = Store(principal, target, table);
  datasources_.InvalidateConnector(target.name);
  Audit("datasource.lake_table.registered", principal,
        Json{{"datasource", target.name}, {"table", table.QualifiedName()}});
  return row;
}

Json LakeTableService::ReadManifest(const Target& target, const std::string& url) {
  // The SSRF boundary: a manifest is read only from the datasource's own root. For a file://
  // datasource that is a file:// path under its root; any other URL (http, s3 on a datasource
  // without that bucket, a path outside the root) is refused before anything is fetched.
  auto forbidden = [&](const std::string& why) {
    Fail(errc::kLakeManifestUrlForbidden,
         "manifest_url '" + url + "' is refused: " + why +
             ". A manifest is fetched only from the datasource's own root.",
         Json{{"field", "manifest_url"}});
  };
  if (url.rfind("file://", 0) != 0) forbidden("only a file:// URL under the datasource's root");
  if (target.config.lake_root.empty()) forbidden("the datasource has no file:// root");
  if (LakeLocationProblem(url, target.config.lake_root)) {
    forbidden("it is not a plain path under " + target.config.lake_root);
  }
  std::string path = LakeFilePath(url);
  std::error_code ec;
  // Resolve symlinks: a link under the root pointing elsewhere is outside it.
  auto real = std::filesystem::weakly_canonical(path, ec);
  auto root = std::filesystem::weakly_canonical(target.config.lake_root, ec);
  std::string base = root.string();
  if (base.back() != '/') base.push_back('/');
  if (real.string().rfind(base, 0) != 0) forbidden("it resolves outside the datasource's root");
  auto size = std::filesystem::file_size(real, ec);
  if (ec || size > kMaxManifestBytes) {
    throw DomainError(errc::kDatasourceUnreachable,
                      "The manifest at '" + url +
                          "' could not be read from the datasource's "
                          "storage" +
                          (ec ? "" : " (larger than 1 MiB)") + ".",
                      Json{{"datasource", target.name}});
  }
  std::ifstream in(real);
  std::stringstream buffer;
  buffer << in.rdbuf();
  Json manifest = Json::parse(buffer.str(), nullptr, /*allow_exceptions=*/false);
  if (!manifest.is_object() || !manifest.contains("tables") || !manifest["tables"].is_array()) {
    throw DomainError(errc::kRequestInvalid,
                      "The manifest at '" + url + "' is not a JSON object with a tables array.",
                      Json{{"field", "manifest_url"}});
  }
  return manifest;
}

Json LakeTableService::Import(const Principal& principal, const Json& arguments) {
  Target target =
      RequireLake(principal, Operation::kLakeTablesImport, RequiredString(arguments, "name"));
  return ImportInto(principal, target, arguments);
}

Json LakeTableService::ImportAsOperator(const std::string& datasource,
                                        const std::string& manifest_url) {
  auto resolved = datasources_.ResolveConfiguredAsOperator(datasource);
  if (resolved.dialect != "LAKE") {
    Fail(errc::kLakeDialectRequired,
         "Datasource '" + datasource + "' is a " + resolved.dialect +
             " datasource; only a LAKE datasource has a table registry.",
         Json{{"datasource", datasource}, {"dialect", resolved.dialect}});
  }
  Principal system;  // no user: the rows and the audit event say "system"
  return ImportInto(system, Target{resolved.name, resolved.config},
                    Json{{"name", resolved.name}, {"manifest_url", manifest_url}});
}

Json LakeTableService::ImportInto(const Principal& principal, const Target& target,
                                  const Json& arguments) {
  bool inline_tables = arguments.contains("tables");
  bool by_url = arguments.contains("manifest_url");
  if (inline_tables == by_url) {
    throw DomainError(errc::kRequestInvalid, "Pass exactly one of tables and manifest_url.",
                      Json{{"field", inline_tables ? "manifest_url" : "tables"}});
  }
  Json tables;
  Json shared_ns = arguments.value("namespace", Json());
  std::string prefix = arguments.value("publish_prefix", "");
  if (by_url) {
    if (!arguments["manifest_url"].is_string()) {
      throw DomainError(errc::kRequestInvalid, "manifest_url must be a string.",
                        Json{{"field", "manifest_url"}});
    }
    Json manifest = ReadManifest(target, arguments["manifest_url"].get<std::string>());
    tables = manifest["tables"];
    if (shared_ns.is_null()) shared_ns = manifest.value("namespace", Json());
    if (prefix.empty()) prefix = manifest.value("publish_prefix", "");
    // Relative paths in a fetched manifest resolve against its own folder by default.
    if (prefix.empty()) {
      std::string url = arguments["manifest_url"].get<std::string>();
      prefix = url.substr(0, url.rfind('/'));
    }
  } else {
    tables = arguments["tables"];
    if (!tables.is_array()) {
      throw DomainError(errc::kRequestInvalid, "tables must be an array.",
                        Json{{"field", "tables"}});
    }
  }
  if (tables.empty() || tables.size() > kMaxImportTables) {
    throw DomainError(errc::kRequestInvalid, "an import carries 1 to 500 tables.",
                      Json{{"field", "tables"}});
  }
  // Every entry is validated before anything is read or written.
  std::vector<LakeTable> candidates;
  std::set<std::string> seen;
  for (const auto& entry : tables) {
    if (!entry.is_object()) {
      throw DomainError(errc::kRequestInvalid, "each tables entry is an object.",
                        Json{{"field", "tables"}});
    }
    Json location = entry.value("location", Json());
    if (location.is_null() && entry.contains("path") && entry["path"].is_string()) {
      std::string path = entry["path"].get<std::string>();
      if (path.find("://") == std::string::npos) {
        if (prefix.empty()) {
          Fail(errc::kLakeLocationInvalid,
               "entry path '" + path + "' is relative: pass publish_prefix to resolve it.",
               Json{{"field", "publish_prefix"}});
        }
        path = (prefix.back() == '/' ? prefix : prefix + "/") + path;
      }
      location = path;
    }
    Json ns = entry.contains("namespace") ? entry["namespace"] : shared_ns;
    LakeTable table = ValidateEntry(target, ns, entry.value("name", Json()),
                                    entry.value("format", Json("parquet")), location,
                                    entry.value("partition_column", Json()));
    if (!seen.insert(table.QualifiedName()).second) {
      Fail(errc::kLakeTableDuplicate,
           "Table '" + table.QualifiedName() + "' appears twice in the import.",
           Json{{"datasource", target.name}, {"table", table.QualifiedName()}});
    }
    candidates.push_back(std::move(table));
  }
  std::set<std::string> registered;
  for (const auto& existing : store_.List(target.name)) {
    registered.insert(Dotted(existing.table.ns, existing.table.name));
  }
  Json already = Json::array();
  std::vector<LakeTable> fresh;
  for (auto& table : candidates) {
    if (registered.count(table.QualifiedName())) {
      already.push_back(table.QualifiedName());
    } else {
      fresh.push_back(table);
    }
  }
  // Pre-flight only what is new: an idempotent re-import neither re-reads nor fails.
  for (const auto& table : fresh) Preflight(target, table);
  Json rows = Json::array();
  for (const auto& table : fresh) rows.push_back(Store(principal, target, table));
  if (!fresh.empty()) datasources_.InvalidateConnector(target.name);
  Audit("datasource.lake_table.imported", principal,
        Json{{"datasource", target.name},
             {"registered_count", rows.size()},
             {"already_registered_count", already.size()}});
  return Json{{"registered", rows},
              {"registered_count", rows.size()},
              {"already_registered", already},
              {"already_registered_count", already.size()}};
}

Json LakeTableService::Unregister(const Principal& principal, const Json& arguments) {
  Target target =
      RequireLake(principal, Operation::kLakeTablesUnregister, RequiredString(arguments, "name"));
  std::vector<std::string> ns = ParseNamespace(arguments.value("namespace", Json()));
  Json table = arguments.value("table", Json());
  if (!table.is_string() || !IsSegment(table.get<std::string>())) {
    Fail(errc::kLakeNameInvalid, "table must be one segment of the name grammar.",
         Json{{"field", "table"}});
  }
  std::string name = table.get<std::string>();
  std::string qualified = Dotted(ns, name);
  if (!store_.Delete(target.name, ns, name)) {
    Fail(errc::kLakeTableNotFound,
         "Table '" + qualified + "' is not registered on '" + target.name + "'.",
         Json{{"datasource", target.name}, {"table", qualified}});
  }
  datasources_.InvalidateConnector(target.name);
  Audit("datasource.lake_table.unregistered", principal,
        Json{{"datasource", target.name}, {"table", qualified}});
  return Json{{"datasource", target.name}, {"table", qualified}, {"deleted", true}};
}

Json LakeTableService::List(const Principal& principal, const std::string& datasource) {
  EnforceAccess(principal, Operation::kLakeTablesList);
  auto resolved = datasources_.ResolveConfigured(principal, datasource);
  if (resolved.dialect != "LAKE") {
    Fail(errc::kLakeDialectRequired, "Datasource '" + datasource + "' is not a LAKE datasource.",
         Json{{"datasource", datasource}, {"dialect", resolved.dialect}});
  }
  Json rows = Json::array();
  for (const auto& record : store_.List(resolved.name)) rows.push_back(record.ToJson());
  return Json{{"datasource", resolved.name}, {"tables", rows}};
}

std::vector<LakeTable> LakeTableService::TablesOf(const std::string& datasource) {
  std::vector<LakeTable> out;
  for (auto& record : store_.List(datasource)) out.push_back(std::move(record.table));
  return out;
}

void LakeTableService::Audit(const std::string& event, const Principal& principal, Json details) {
  AuditEvent row;
  row.event = event;
  row.user_id = principal.user_id;
  row.key_id = principal.key_id;
  row.workspace_id = principal.workspace_id;
  row.details = std::move(details);
  audit_.Record(std::move(row));
}

}  // namespace dp
