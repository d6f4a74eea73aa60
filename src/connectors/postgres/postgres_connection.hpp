#pragma once
// One libpq session. Sessions run with TimeZone=UTC and ISO DateStyle so temporal text is
// parseable and timestamptz arrives as UTC (type-system.md §8.4).
#include <libpq-fe.h>

#include <functional>
#include <unordered_map>

#include "datapipelines/connectors/connection.hpp"
#include "datapipelines/connectors/connector_config.hpp"
#include "datapipelines/connectors/source_type.hpp"

namespace dp {

class StatementGuard;

class PostgresConnection : public Connection {
 public:
  explicit PostgresConnection(const ConnectorConfig& config);
  ~PostgresConnection() override;

  QueryResult Query(std::string_view sql, const BindMap& binds, const QueryOptions& options,
                    const RowCallback& on_row, const ColumnsCallback& on_columns = {}) override;
  bool CopyIn(std::string_view table_sql, const std::vector<std::string>& columns,
              const std::function<bool(std::string& buffer)>& fill) override;
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
  struct PgType {
    std::string name;
    char category = 0;
  };

  // Catalog helper: a parameterised text query, all rows materialised (small results only).
  Rows Fetch(const std::string& sql, const std::vector<std::optional<std::string>>& params);
  [[noreturn]] void Fail(PGresult* result);
  // Fills the oid → type cache; true when it had to query the catalog.
  bool ResolveTypes(const std::vector<Oid>& oids);
  std::vector<ColumnSchema> DescribeColumns(const PGresult* description, bool& looked_up);
  void Drain();
  // Reads one pipeline segment (the statements before a sync): the first error, else the
  // rows, else null; always up to and including the segment's sync.
  struct Segment;
  Segment ReadSegment();
  // A row-returning statement through a cursor, FETCHed in batches on one pipelined round
  // trip each (the next batch requested before this one is handed out). False, with nothing
  // read and the session idle again, when the server refuses the statement as a cursor.
  bool QueryInBatches(const std::string& rendered, int n, const std::vector<Oid>& types,
                      const std::vector<const char*>& values, const std::vector<int>& lengths,
                      const std::vector<int>& formats, const QueryOptions& options,
                      StatementGuard& guard, const std::function<bool(const PGresult*, int)>& emit,
                      QueryResult& result);
  // Sends the rows `fill` produces while the server is in COPY IN state; "" or libpq's error.
  std::string StreamCopyData(const std::function<bool(std::string& buffer)>& fill);
  // The exclusion floor minus the include_schemas escape hatch, as SQL text-array param.
  static std::string ExcludedSchemas(const IntrospectionOptions& options);

  ConnectorConfig config_;
  PGconn* conn_ = nullptr;
  PGcancel* cancel_ = nullptr;
  std::unordered_map<Oid, PgType> types_;
};

}  // namespace dp
