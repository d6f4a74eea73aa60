#pragma once
// POSTGRES connector over libpq: single-row-mode streaming, PQcancel, UTC sessions.
#include "datapipelines/connectors/connector.hpp"

namespace dp {

class PostgresConnector : public Connector {
 public:
  explicit PostgresConnector(ConnectorConfig config);
  std::unique_ptr<Connection> Open() override;
};

}  // namespace dp
