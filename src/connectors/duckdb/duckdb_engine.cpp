#include "duckdb_engine.hpp"

#include <set>

#include "connectors/driver_errors.hpp"
#include "datapipelines/connectors/sql_quoting.hpp"

namespace dp {
namespace {

bool IsFileDatabase(const std::string& path) { return !path.empty() && path != ":memory:"; }

}  // namespace

std::shared_ptr<DuckdbEngine> DuckdbEngine::Open(const ConnectorConfig& config) {
  // One engine per database FILE in this process: the datasource's pool and its sql_probe
  // sessions share it (two DuckDB instances on one file would fight over its lock). The probe
  // stays read-only through the statement gate, whatever the engine's open mode.
  static std::mutex files_mutex;
  static std::map<std::string, std::weak_ptr<DuckdbEngine>> files;
  std::string file = config.dialect == Dialect::kLake ? "" : config.duckdb_path;
  std::unique_lock<std::mutex> files_lock(files_mutex, std::defer_lock);
  if (IsFileDatabase(file)) {
    files_lock.lock();
    if (auto shared = files[file].lock()) return shared;
  }
  std::shared_ptr<DuckdbEngine> engine(new DuckdbEngine());
  duckdb_config settings = nullptr;
  duckdb_create_config(&settings);
  // The extension toggles are set before the database exists: nothing can autoload between
  // open and the lock.
  duckdb_set_config(settings, "autoload_known_extensions", "false");
  duckdb_set_config(settings, "autoinstall_known_extensions", "false");
  duckdb_set_config(settings, "allow_community_extensions", "false");
  duckdb_set_config(settings, "allow_unsigned_extensions", "false");
  // Freed buffers go back to the OS early: a streamed result must not hold on to memory.
  duckdb_set_config(settings, "allocator_flush_threshold", "16MB");
  if (!config.duckdb_extension_directory.empty()) {
    duckdb_set_config(settings, "extension_directory", config.duckdb_extension_directory.c_str());
  }
  std::string path = config.dialect == Dialect::kLake ? ":memory:" : config.duckdb_path;
  if (path.empty()) path = ":memory:";
  // Bounded like any other tenant of the process: threads and memory (0 = DuckDB's default).
  std::string threads = std::to_string(config.duckdb_threads);
  if (config.duckdb_threads > 0) duckdb_set_config(settings, "threads", threads.c_str());
  std::string memory = std::to_string(config.duckdb_memory_limit_mb) + "MB";
  if (config.duckdb_memory_limit_mb > 0) {
    duckdb_set_config(settings, "memory_limit", memory.c_str());
  }
  // An in-memory DUCKDB engine (a :memory: datasource, the DuckDB tempdb) never writes
  // temporary files: past its memory limit a statement fails instead of spilling to disk.
  if (config.dialect == Dialect::kDuckdb && !IsFileDatabase(path)) {
    duckdb_set_config(settings, "temp_directory", "");
  }
  if (IsFileDatabase(path) && (config.readonly || config.probe)) {
    duckdb_set_config(settings, "access_mode", "READ_ONLY");
  }
  char* error = nullptr;
  duckdb_state state = duckdb_open_ext(path.c_str(), &engine->db_, settings, &error);
  duckdb_destroy_config(&settings);
  if (state != DuckDBSuccess) {
    std::string message = error ? error : "could not open the DuckDB database";
    if (error) duckdb_free(error);
    engine->db_ = nullptr;
    throw driver_errors::Unreachable(config, message);
  }
  if (duckdb_connect(engine->db_, &engine->setup_) != DuckDBSuccess) {
    throw driver_errors::Unreachable(config, "could not connect to the DuckDB database");
  }
  engine->Harden(config);
  if (IsFileDatabase(file)) files[file] = engine;
  return engine;
}

DuckdbEngine::~DuckdbEngine() {
  if (setup_) duckdb_disconnect(&setup_);
  if (db_) duckdb_close(&db_);
}

std::string DuckdbEngine::Run(const std::string& sql) {
  duckdb_result result;
  std::string message;
  if (duckdb_query(setup_, sql.c_str(), &result) != DuckDBSuccess) {
    const char* text = duckdb_result_error(&result);
    message = text ? text : "DuckDB statement failed";
  }
  duckdb_destroy_result(&result);
  return message;
}

void DuckdbEngine::Harden(const ConnectorConfig& config) {
  std::vector<std::string> directories;
  if (config.dialect == Dialect::kLake && !config.lake_root.empty()) {
    std::string root = config.lake_root;
    if (root.back() != '/') root.push_back('/');
    directories.push_back(root);
  }
  if (!config.duckdb_extension_directory.empty()) {
    std::string dir = config.duckdb_extension_directory;
    if (dir.back() != '/') dir.push_back('/');
    directories.push_back(dir);
  }
  std::string list;
  for (const auto& dir : directories) {
    if (dir.find('\'') != std::string::npos) {
      throw driver_errors::Unreachable(config, "a DuckDB allowed directory may not hold a quote");
    }
    list += (list.empty() ? "" : ", ") + SingleQuoted(dir);
  }
  // Order matters: the allow-list first (it cannot change once access is off), then access
  // off, then (LAKE) the views, which bind against the root, then the lock that freezes every
  // option — enable_external_access included — for the database's life. A failure here is a
  // datasource fault: the engine is never served half-hardened.
  auto strict = [&](const std::string& sql) {
    std::string failure = Run(sql);
    if (!failure.empty()) throw driver_errors::Unreachable(config, failure);
  };
  strict("SET allowed_directories = [" + list + "]");
  strict("SET enable_external_access = false");
  if (config.dialect == Dialect::kLake) BuildViews(config);
  strict("SET autoload_known_extensions = false");
  strict("SET autoinstall_known_extensions = false");
  strict("SET allow_community_extensions = false");
  strict("SET lock_configuration = true");
}

std::optional<std::string> DuckdbEngine::UnservableReason(const LakeTable& table,
                                                          const std::string& extension_directory) {
  if (!extension_directory.empty()) return std::nullopt;
  if (table.location.rfind("s3://", 0) == 0) {
    return "s3:// locations need DuckDB's httpfs extension, which this build cannot load: the "
           "server has no extension directory configured (connectors.duckdb.extension_directory)"
           " and never downloads extensions";
  }
  if (table.format == "iceberg") {
    return "iceberg tables need DuckDB's iceberg extension, which this build cannot load: the "
           "server has no extension directory configured (connectors.duckdb.extension_directory)"
           " and never downloads extensions";
  }
  return std::nullopt;
}

std::string DuckdbEngine::ScanSql(const LakeTable& table) {
  std::string path =
      table.location.rfind("file://", 0) == 0 ? LakeFilePath(table.location) : table.location;
  if (table.format == "iceberg") return "SELECT * FROM iceberg_scan(" + SingleQuoted(path) + ")";
  bool names_files = path.find('*') != std::string::npos ||
                     (path.size() > 8 && path.compare(path.size() - 8, 8, ".parquet") == 0);
  if (!names_files) {
    if (path.back() != '/') path.push_back('/');
    path += "**/*.parquet";
  }
  std::string options = table.partition_column ? ", hive_partitioning = true" : "";
  return "SELECT * FROM read_parquet(" + SingleQuoted(path) + options + ")";
}

void DuckdbEngine::BuildViews(const ConnectorConfig& config) {
  // Extensions the registered tables need load from the operator's folder, before the lock.
  bool wants_httpfs = false, wants_iceberg = false;
  for (const auto& table : config.lake_tables) {
    wants_httpfs |= table.location.rfind("s3://", 0) == 0;
    wants_iceberg |= table.format == "iceberg";
  }
  std::string extension_failure;
  if (!config.duckdb_extension_directory.empty()) {
    if (wants_httpfs) extension_failure = Run("LOAD httpfs");
    if (wants_iceberg && extension_failure.empty()) extension_failure = Run("LOAD iceberg");
  }
  std::set<std::string> attached;
  for (const auto& table : config.lake_tables) {
    std::string key = table.QualifiedName();
    auto record = [&](const std::string& why) { view_errors_[key] = why.substr(0, 2000); };
    if (auto problem = LakeLocationProblem(table.location, config.lake_root)) {
      record(*problem);
      continue;
    }
    if (auto reason = UnservableReason(table, config.duckdb_extension_directory)) {
      record(*reason);
      continue;
    }
    if (!extension_failure.empty() &&
        (table.location.rfind("s3://", 0) == 0 || table.format == "iceberg")) {
      record(extension_failure);
      continue;
    }
    if (table.ns.empty() || table.ns.size() > 2) {
      record("a lake namespace has one or two segments");
      continue;
    }
    std::string schema;
    if (table.ns.size() == 2) {
      if (!attached.count(table.ns[0])) {
        std::string failure =
            Run("ATTACH IF NOT EXISTS ':memory:' AS " + DoubleQuoted(table.ns[0]));
        if (!failure.empty()) {
          record(failure);
          continue;
        }
        attached.insert(table.ns[0]);
      }
      schema = DoubleQuoted(table.ns[0]) + "." + DoubleQuoted(table.ns[1]);
    } else {
      schema = DoubleQuoted(table.ns[0]);
    }
    std::string failure = Run("CREATE SCHEMA IF NOT EXISTS " + schema);
    if (failure.empty()) {
      failure = Run("CREATE OR REPLACE VIEW " + schema + "." + DoubleQuoted(table.name) + " AS " +
                    ScanSql(table));
    }
    if (!failure.empty()) record(failure);
  }
}

duckdb_connection DuckdbEngine::Connect(const ConnectorConfig& config) {
  duckdb_connection connection = nullptr;
  if (duckdb_connect(db_, &connection) != DuckDBSuccess) {
    throw driver_errors::Unreachable(config, "could not connect to the DuckDB database");
  }
  return connection;
}

}  // namespace dp
