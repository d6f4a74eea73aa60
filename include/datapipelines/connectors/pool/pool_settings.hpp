#pragma once
// Pool settings (datasources.md §5). The registry stores them as the `properties.hikari` map
// (HikariCP names, durations in ms); FromHikari is the save-time "test pool build" check.
#include <string>

#include "datapipelines/util/json.hpp"

namespace dp {

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

  // Applies a `properties.hikari` object over the defaults. Throws
  // DomainError(datasource.validation.properties_invalid) with details.key for a
  // server-managed key (jdbcUrl, password, ...), an unknown key, or a value of the wrong
  // type or range. Recognised Hikari keys this pool has no use for are accepted and ignored.
  static PoolSettings FromHikari(const Json& hikari);
  // The effective settings as a `properties.hikari` map (for GET responses).
  Json ToHikari() const;
};

}  // namespace dp
