#include "sqlite_connector.hpp"

#include "sqlite_connection.hpp"

namespace dp {

SqliteConnector::SqliteConnector(ConnectorConfig config) : Connector(std::move(config)) {
  InitPool();
}

std::unique_ptr<Connection> SqliteConnector::Open() {
  return std::make_unique<SqliteConnection>(config());
}

}  // namespace dp
