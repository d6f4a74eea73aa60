#pragma once
// The tempdb's query session: a Connection over the one sqlite3 handle the staging writers
// also use. One handle, not two shared-cache connections: while a tempdb-source query is
// streaming, its row callback may create and fill a staged table (tempdb → tempdb), and
// shared cache refuses schema changes while another connection has a read open
// ("database table is locked: sqlite_master"). Statement semantics follow the SQLite
// connector (named binds, multi-statement text, declared-type → canonical mapping via
// sqlite_type_mapper, timeout/cancel through StatementGuard). Not thread-safe: Tempdb
// serializes access.
#include <sqlite3.h>

#include "datapipelines/connectors/connection.hpp"
#include "datapipelines/connectors/connector_config.hpp"

namespace dp {

class StatementGuard;

class TempdbSession : public Connection {
 public:
  explicit TempdbSession(sqlite3* db);  // borrowed; the Tempdb owns and closes it

  QueryResult Query(std::string_view sql, const BindMap& binds, const QueryOptions& options,
                    const RowCallback& on_row, const ColumnsCallback& on_columns = {}) override;
  void Cancel() override { sqlite3_interrupt(db_); }
  bool Ping(int) override { return true; }
  std::string ServerVersion() override { return std::string("SQLite ") + sqlite3_libversion(); }
  bool broken() const override { return false; }

  NamespaceListing ListNamespaces(const IntrospectionOptions&) override { return {}; }
  TableListing ListTables(const std::optional<std::string>& schema,
                          const IntrospectionOptions& options) override;
  std::vector<ColumnSchema> ListColumns(const std::optional<std::string>& schema,
                                        const std::string& table,
                                        const IntrospectionOptions& options) override;
  TableStats GetTableStats(const std::optional<std::string>&, const std::string&) override {
    return {};
  }
  std::optional<std::string> CurrentSchema() override { return std::string("main"); }

 private:
  sqlite3_stmt* Prepare(std::string_view sql, const char** tail);
  void BindAll(sqlite3_stmt* stmt, const std::vector<std::string>& names, const BindMap& binds);
  // Steps one prepared statement to completion, streaming its rows; false = stop reading.
  bool Run(sqlite3_stmt* stmt, const StatementGuard& guard, const QueryOptions& options,
           const RowCallback& on_row, const ColumnsCallback& on_columns, QueryResult& result,
           bool& reported);
  [[noreturn]] void Fail(int rc);

  sqlite3* db_;
  ConnectorConfig config_;  // names the engine in errors
};

}  // namespace dp
