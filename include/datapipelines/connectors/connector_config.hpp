#pragma once
// Everything a connector needs to open sessions against one datasource.
#include <map>
#include <string>
#include <vector>

#include "datapipelines/connectors/dialect.hpp"
#include "datapipelines/connectors/duckdb/lake_table.hpp"
#include "datapipelines/connectors/pool/pool_settings.hpp"

namespace dp {

struct ConnectorConfig {
  Dialect dialect = Dialect::kPostgres;
  std::string host;
  int port = 0;
  std::string database;
  std::string username;
  std::string password;
  std::string sqlite_path;  // SQLITE only (":memory:" allowed)
  // DUCKDB: a .duckdb file or ":memory:". LAKE: always an in-memory engine.
  std::string duckdb_path;
  // LAKE: the absolute directory every file:// location must sit under (the datasource's own
  // root: the engine may read nothing else). Empty: no file:// table can be served.
  std::string lake_root;
  // LAKE: the registry's rows; each becomes a view when the engine opens.
  std::vector<LakeTable> lake_tables;
  // DUCKDB/LAKE: an operator-provided folder of DuckDB extensions (httpfs, iceberg). Empty
  // (the default): no extension can load, so s3:// and iceberg tables are refused.
  std::string duckdb_extension_directory;
  // DUCKDB/LAKE: the engine's bounds (datapipelines.connectors.duckdb.*): worker threads and
  // memory limit in MiB; 0 = DuckDB's own default (one thread per core, 80% of RAM). An
  // in-memory DUCKDB engine never spills to disk, so its limit is a hard one.
  int duckdb_threads = 0;
  int64_t duckdb_memory_limit_mb = 0;
  // The DuckDB tempdb's own engine (DuckdbStaging): staged INTEGER columns are BIGINT and
  // BIGINTEGER ones HUGEINT, so its sessions read BIGINT back as INTEGER and HUGEINT as
  // BIGINTEGER — the canonical types the staged columns had (SQLite's tempdb does the same).
  bool duckdb_staging = false;
  bool readonly = false;
  // sql_probe's own sessions: read-only whatever `readonly` says (a SQLite handle opens
  // SQLITE_OPEN_READONLY with the probe authorizer; PG/MySQL sessions are read-only).
  bool probe = false;
  PoolSettings pool;
  int query_timeout_seconds = 0;  // 0 = none
  int connect_timeout_seconds = 10;
  // Driver options (properties.jdbc-like), e.g. sslmode for PG.
  std::map<std::string, std::string> options;

  // postgresql://user:pw@host:port/db?opt=v, mysql://…, sqlite:///abs/path or sqlite::memory:,
  // duckdb:/abs/file.duckdb or duckdb::memory:, lake:file:///abs/root or lake::memory:.
  // Throws DomainError(datasource.validation.jdbc_url_malformed) without echoing secrets.
  static ConnectorConfig FromUrl(const std::string& url);
  // "POSTGRES dp@127.0.0.1:5432/db" — safe for messages and logs (never the password).
  std::string Describe() const;
};

}  // namespace dp
