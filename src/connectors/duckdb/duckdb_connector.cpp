#include "duckdb_connector.hpp"

#include "duckdb_connection.hpp"
#include "duckdb_engine.hpp"

namespace dp {

DuckdbConnector::DuckdbConnector(ConnectorConfig config) : Connector(std::move(config)) {
  InitPool();
}

DuckdbConnector::~DuckdbConnector() {
  // Sessions first (the base destructor closes the pool), then the engine they share.
  pool().Close();
}

std::shared_ptr<DuckdbEngine> DuckdbConnector::Engine() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!engine_) engine_ = DuckdbEngine::Open(config());
  return engine_;
}

std::unique_ptr<Connection> DuckdbConnector::Open() {
  return std::make_unique<DuckdbConnection>(config(), Engine());
}

std::map<std::string, std::string> DuckdbConnector::lake_view_errors() {
  return Engine()->view_errors();
}

}  // namespace dp
