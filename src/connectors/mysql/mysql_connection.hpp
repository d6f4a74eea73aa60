#pragma once
// One MariaDB Connector/C session (text protocol). Binds are rendered client-side as typed,
// escaped literals (mysql_real_escape_string honours the session charset and
// NO_BACKSLASH_ESCAPES), so a bound value is always data, never SQL.
#include <mariadb/mysql.h>

#include "datapipelines/connectors/connection.hpp"
#include "datapipelines/connectors/connector_config.hpp"

namespace dp {

class MysqlConnection : public Connection {
 public:
  explicit MysqlConnection(const ConnectorConfig& config);
  ~MysqlConnection() override;

  QueryResult Query(std::string_view sql, const BindMap& binds, const QueryOptions& options,
                    const RowCallback& on_row, const ColumnsCallback& on_columns = {}) override;
  void Cancel() override;
  bool Ping(int timeout_ms) override;
  std::string ServerVersion() override;
  bool broken() const override;

  NamespaceListing ListNamespaces(const IntrospectionOptions& options) override;
  TableListing ListTables(const std::optional<std::string>& schema,
                          const IntrospectionOptions& options) override;
  std::vector<ColumnSchema> ListColumns(const std::optional<std::string>& schema,
                                        const std::string& table,
                                        const IntrospectionOptions& options) override;
  TableStats GetTableStats(const std::optional<std::string>& schema,
                           const std::string& table) override;
  std::optional<std::string> CurrentSchema() override;

 private:
  using Rows = std::vector<std::vector<std::optional<std::string>>>;

  static MYSQL* Connect(const ConnectorConfig& config);
  std::string Literal(std::string_view text);
  std::string RenderBind(const std::string& name, const BindMap& binds);
  Rows Fetch(const std::string& sql);
  [[noreturn]] void Fail();
  std::string SystemSchemaFilter(const std::string& column, const IntrospectionOptions& options);

  ConnectorConfig config_;
  MYSQL* conn_ = nullptr;
  unsigned long thread_id_ = 0;
  bool broken_ = false;
};

}  // namespace dp
