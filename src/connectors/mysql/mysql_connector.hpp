#pragma once
// MYSQL/MariaDB connector over MariaDB Connector/C: mysql_use_result streaming, backtick
// quoting, databases as namespaces (JDBC catalogs), KILL QUERY cancel.
#include "datapipelines/connectors/connector.hpp"

namespace dp {

class MysqlConnector : public Connector {
 public:
  explicit MysqlConnector(ConnectorConfig config);
  std::unique_ptr<Connection> Open() override;
  std::string QuoteIdentifier(std::string_view name) const override;
  bool schema_arrives_in_catalog() const override { return true; }
};

}  // namespace dp
