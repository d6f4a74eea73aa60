#pragma once
// One duckdb_connection on a connector's shared, hardened engine. Cancel() is
// duckdb_interrupt, safe from any thread. Author SQL is also gated by statement type: the
// engine-level primitives (COPY, ATTACH/DETACH, INSTALL/LOAD, EXPORT/IMPORT, SET/RESET, PRAGMA,
// CALL, VACUUM, PREPARE/EXECUTE) are refused before they run; a read-only datasource and
// every LAKE datasource admit only SELECT and EXPLAIN.
#include <atomic>
#include <memory>

#include "datapipelines/connectors/connection.hpp"
#include "datapipelines/connectors/connector_config.hpp"
#include "duckdb_engine.hpp"

namespace dp {

class DuckdbConnection : public Connection {
 public:
  DuckdbConnection(const ConnectorConfig& config, std::shared_ptr<DuckdbEngine> engine);
  ~DuckdbConnection() override;

  QueryResult Query(std::string_view sql, const BindMap& binds, const QueryOptions& options,
                    const RowCallback& on_row, const ColumnsCallback& on_columns = {}) override;
  void Cancel() override;
  bool Ping(int timeout_ms) override;
  std::string ServerVersion() override;
  bool broken() const override { return connection_ == nullptr; }

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
  // Catalog read: text binds in, every cell as text out (the SQL casts what it selects).
  std::vector<std::vector<std::optional<std::string>>> Rows(const std::string& sql,
                                                            const std::vector<std::string>& args);
  TableStats LakeStats(const LakeTable& table);
  const LakeTable* FindLakeTable(const std::optional<std::string>& schema,
                                 const std::string& table) const;

  ConnectorConfig config_;
  std::shared_ptr<DuckdbEngine> engine_;
  duckdb_connection connection_ = nullptr;
};

}  // namespace dp
