#pragma once
// SQLITE connector: libsqlite3, one file per datasource, readonly open flag honoured,
// ATTACH and extension loading disabled (datasources.md §5.6 in-process hardening).
#include "datapipelines/connectors/connector.hpp"

namespace dp {

class SqliteConnector : public Connector {
 public:
  explicit SqliteConnector(ConnectorConfig config);
  std::unique_ptr<Connection> Open() override;
};

}  // namespace dp
