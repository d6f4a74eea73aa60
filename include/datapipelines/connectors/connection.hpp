#pragma once
// One live session to a datasource. Not thread-safe except Cancel(), which may be called
// from any thread while Query() runs.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/connectors/bind_value.hpp"
#include "datapipelines/connectors/introspection.hpp"
#include "datapipelines/connectors/query_options.hpp"

namespace dp {

class Connection {
 public:
  virtual ~Connection() = default;

  // Runs one statement with typed `:name` binds and streams its rows. Errors are
  // DomainErrors: datasource_unreachable (connection lost), table_forbidden (permission
  // SQLSTATE), query_execution_failed (details.reason "timeout"/"cancelled" for those).
  virtual QueryResult Query(std::string_view sql, const BindMap& binds, const QueryOptions& options,
                            const RowCallback& on_row, const ColumnsCallback& on_columns = {}) = 0;
  // Convenience for statements without rows (DDL/DML in tests and tempdb).
  int64_t Execute(std::string_view sql, const BindMap& binds = {});

  // Bulk load (COPY … FROM STDIN on PostgreSQL), for loaders whose volume makes parsing INSERT
  // batches the bottleneck. `table_sql` is an already quoted (qualified) table name; `columns`
  // are unquoted names. `fill` appends rows in COPY text format (see copy_text.hpp) to an empty
  // buffer and returns false once it has appended the last ones. Runs in the session's current
  // transaction without a statement deadline. Returns false, having called nothing, where the
  // engine has no bulk path: the caller falls back to INSERTs.
  virtual bool CopyIn(std::string_view table_sql, const std::vector<std::string>& columns,
                      const std::function<bool(std::string& buffer)>& fill);

  // Interrupts the statement currently running on this session (thread-safe).
  virtual void Cancel() = 0;
  // Cheap liveness check; false when the session is unusable.
  virtual bool Ping(int timeout_ms) = 0;
  virtual std::string ServerVersion() = 0;
  // A session that failed at the transport level is dropped by the pool, never reused.
  virtual bool broken() const = 0;

  virtual NamespaceListing ListNamespaces(const IntrospectionOptions& options) = 0;
  virtual TableListing ListTables(const std::optional<std::string>& schema,
                                  const IntrospectionOptions& options) = 0;
  // Without a schema: the session's current schema; none → parameter_required.
  virtual std::vector<ColumnSchema> ListColumns(const std::optional<std::string>& schema,
                                                const std::string& table,
                                                const IntrospectionOptions& options) = 0;
  virtual TableStats GetTableStats(const std::optional<std::string>& schema,
                                   const std::string& table) = 0;
  virtual std::optional<std::string> CurrentSchema() = 0;

  // Set by the connector: the configured timeout applied when options.timeout_ms == 0.
  void set_default_timeout_ms(int ms) { default_timeout_ms_ = ms; }

 protected:
  int EffectiveTimeoutMs(const QueryOptions& options) const;

 private:
  int default_timeout_ms_ = 0;
};

}  // namespace dp
