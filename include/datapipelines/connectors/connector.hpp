#pragma once
// One datasource's connector: dialect traits (quoting, LIMIT), the session pool and
// leased conveniences. connector_factory.hpp makes one per dialect.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/connectors/connector_config.hpp"
#include "datapipelines/connectors/connector_factory.hpp"
#include "datapipelines/connectors/pool/connection_pool.hpp"
#include "datapipelines/connectors/type_mapper.hpp"

namespace dp {

// datasources.md §8.1 TestResult.
struct ConnectionTestResult {
  bool connected = false;
  std::string server_version;
  int64_t latency_ms = 0;
  std::string error;         // already free of credentials
  std::string error_class;   // the DomainError code of the failure
  std::string tested_at;     // ISO-8601 UTC
  int64_t tested_at_ms = 0;  // the same instant, epoch ms (what the registry stores)

  Json ToJson() const;
};

class Connector {
 public:
  virtual ~Connector();

  Dialect dialect() const { return config_.dialect; }
  const ConnectorConfig& config() const { return config_; }
  const TypeMapper& type_mapper() const { return TypeMapperFor(config_.dialect); }

  // Quoted identifier in the dialect's style; refuses NUL and empty names
  // (request.validation.invalid).
  virtual std::string QuoteIdentifier(std::string_view name) const;
  // Dotted, each part quoted.
  std::string QuoteQualified(const std::vector<std::string>& parts) const;
  // " LIMIT n" (the dialect's own row-cap syntax).
  virtual std::string LimitClause(int64_t rows) const;
  // True on MySQL: databases are the namespaces (JDBC catalogs).
  virtual bool schema_arrives_in_catalog() const { return false; }

  // LAKE: qualified table name ("ns.table") → why its view could not be built when the
  // engine opened (the table is skipped, the datasource still serves the others).
  virtual std::map<std::string, std::string> lake_view_errors() { return {}; }

  ConnectionPool::Lease Acquire();
  ConnectionPool& pool() { return *pool_; }
  // Opens a fresh session outside the pool (connection tests, KILL QUERY side channel).
  virtual std::unique_ptr<Connection> Open() = 0;

  ConnectionTestResult Test();
  // Runs one statement on a pooled session. A reused session found gone before it delivered
  // anything (its server restarted since it was last used: datasource_unreachable) is dropped
  // and the statement run once more on a fresh one, so a restart does not fail the node.
  QueryResult Query(std::string_view sql, const BindMap& binds, const QueryOptions& options,
                    const RowCallback& on_row, const ColumnsCallback& on_columns = {});

 protected:
  explicit Connector(ConnectorConfig config);
  void InitPool();

 private:
  ConnectorConfig config_;
  std::shared_ptr<ConnectionPool> pool_;
};

}  // namespace dp
