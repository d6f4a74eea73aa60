#include "postgres_connector.hpp"

#include "postgres_connection.hpp"

namespace dp {

PostgresConnector::PostgresConnector(ConnectorConfig config) : Connector(std::move(config)) {
  InitPool();
}

std::unique_ptr<Connection> PostgresConnector::Open() {
  return std::make_unique<PostgresConnection>(config());
}

}  // namespace dp
