#pragma once
// One sqlite3 handle. Cancel() is sqlite3_interrupt, which is safe from any thread.
#include <sqlite3.h>

#include <memory>

#include "datapipelines/connectors/connection.hpp"
#include "datapipelines/connectors/connector_config.hpp"

namespace dp {

class SqliteConnection : public Connection {
 public:
  explicit SqliteConnection(const ConnectorConfig& config);
  // A session over a handle someone else opened and closes (tempdb's private database): the
  // same statement, bind and column-mapping path as every SQLite datasource.
  static std::unique_ptr<SqliteConnection> Borrow(sqlite3* db);
  ~SqliteConnection() override;

  QueryResult Query(std::string_view sql, const BindMap& binds, const QueryOptions& options,
                    const RowCallback& on_row, const ColumnsCallback& on_columns = {}) override;
  void Cancel() override;
  bool Ping(int timeout_ms) override;
  std::string ServerVersion() override;
  bool broken() const override { return db_ == nullptr; }

  NamespaceListing ListNamespaces(const IntrospectionOptions& options) override;
  TableListing ListTables(const std::optional<std::string>& schema,
                          const IntrospectionOptions& options) override;
  std::vector<ColumnSchema> ListColumns(const std::optional<std::string>& schema,
                                        const std::string& table,
                                        const IntrospectionOptions& options) override;
  TableStats GetTableStats(const std::optional<std::string>& schema,
                           const std::string& table) override;
  std::optional<std::string> CurrentSchema() override { return std::string("main"); }

 private:
  sqlite3_stmt* Prepare(std::string_view sql, const char** tail);
  void BindAll(sqlite3_stmt* stmt, const std::vector<std::string>& names, const BindMap& binds);
  std::vector<ColumnSchema> Columns(sqlite3_stmt* stmt, bool has_row);
  [[noreturn]] void Fail(int rc);
  // Runs a catalog query binding text args, returning all rows as text.
  std::vector<std::vector<std::optional<std::string>>> Rows(std::string_view sql,
                                                            const std::vector<std::string>& args);
  bool SchemaMatches(const std::optional<std::string>& schema) const;

  SqliteConnection() = default;

  ConnectorConfig config_;
  sqlite3* db_ = nullptr;
  // tempdb stores TIME/TIMESTAMP in the wire's ISO form; a user's SQLite file in SQLite's
  // own date-function form. Binds take the form the column stores (SqliteTemporalText).
  bool staged_temporals_ = false;
  bool owns_handle_ = true;
};

}  // namespace dp
