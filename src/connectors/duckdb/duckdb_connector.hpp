#pragma once
// DUCKDB and LAKE connectors: DuckDB's C API inside this process. One hardened engine per
// connector (duckdb_engine.hpp); pooled sessions are connections on it. DUCKDB opens a
// .duckdb file or ":memory:"; LAKE is an in-memory engine whose tables are views over the
// registered locations under the datasource's own root.
#include <memory>
#include <mutex>

#include "datapipelines/connectors/connector.hpp"

namespace dp {

class DuckdbEngine;

class DuckdbConnector : public Connector {
 public:
  explicit DuckdbConnector(ConnectorConfig config);
  ~DuckdbConnector() override;
  std::unique_ptr<Connection> Open() override;
  // LAKE: qualified table name → why its view could not be built at open.
  std::map<std::string, std::string> lake_view_errors() override;

 private:
  std::shared_ptr<DuckdbEngine> Engine();

  std::mutex mutex_;
  std::shared_ptr<DuckdbEngine> engine_;
};

}  // namespace dp
