#pragma once
// Everything a connector needs to open sessions against one datasource.
#include <map>
#include <string>

#include "datapipelines/connectors/dialect.hpp"

namespace dp {

// Pool settings (datasources.md §5, Hikari names in comments; durations in ms).
struct PoolSettings {
  int max_size = 10;                 // maximumPoolSize
  int min_idle = 2;                  // minimumIdle
  int acquire_timeout_ms = 30000;    // connectionTimeout
  int idle_timeout_ms = 600000;      // idleTimeout
  int max_lifetime_ms = 1800000;     // maxLifetime
  int validation_timeout_ms = 5000;  // validationTimeout
  // A connection idle longer than this is validated before it is handed out.
  int validate_after_idle_ms = 500;
  std::string validation_query;  // connectionTestQuery; empty = driver ping
};

struct ConnectorConfig {
  Dialect dialect = Dialect::kPostgres;
  std::string host;
  int port = 0;
  std::string database;
  std::string username;
  std::string password;
  std::string sqlite_path;  // SQLITE only (":memory:" allowed)
  bool readonly = false;
  PoolSettings pool;
  int query_timeout_seconds = 0;  // 0 = none
  int connect_timeout_seconds = 10;
  // Driver options (properties.jdbc-like), e.g. sslmode for PG.
  std::map<std::string, std::string> options;

  // postgresql://user:pw@host:port/db?opt=v, mysql://…, sqlite:///abs/path or sqlite::memory:.
  // Throws DomainError(datasource.validation.jdbc_url_malformed) without echoing secrets.
  static ConnectorConfig FromUrl(const std::string& url);
  // "POSTGRES dp@127.0.0.1:5432/db" — safe for messages and logs (never the password).
  std::string Describe() const;
};

}  // namespace dp
