#pragma once
// The DuckDB staging engine behind `settings.tempdb.engine: DUCKDB` (issue 16, beyond the
// spec): one private in-memory DuckDB per execution, hardened exactly like a DUCKDB datasource
// (no external access, no extension, configuration locked, no spill to disk) and bounded by
// the execution's memory budget. Staged tables are created from the canonical columns with
// DuckDB types that map back to the same canonical types, filled through DuckDB's appender,
// and read by author SQL through an ordinary DuckdbConnection (the statement gate included).
// The executor's Tempdb drives it; every DuckDB call stays in src/connectors/.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/connectors/column_schema.hpp"

namespace dp {

class Connection;
class DuckdbEngine;

class DuckdbStaging {
 public:
  struct Limits {
    int64_t memory_limit_bytes = 1024LL * 1024 * 1024;
    int threads = 0;  // 0 = DuckDB's default
  };

  // Throws std::runtime_error(reason) when the engine cannot be opened and hardened.
  explicit DuckdbStaging(const Limits& limits);
  ~DuckdbStaging();
  DuckdbStaging(const DuckdbStaging&) = delete;
  DuckdbStaging& operator=(const DuckdbStaging&) = delete;

  // The DuckDB column type a canonical column is staged as (reads back as the same mapping:
  // INTEGER → BIGINT, BIGINTEGER → HUGEINT, DECIMAL(p,s) → DECIMAL(p,s), approximate
  // DECIMAL → DOUBLE, BIGDECIMAL(p≤38,s) → DECIMAL, a wider one → VARCHAR, …).
  static std::string ColumnType(const TypeMapping& mapping);
  // CREATE TABLE "t" ("a" TYPE, ...) with ColumnType for each column.
  static std::string CreateTableSql(const std::string& table,
                                    const std::vector<ColumnSchema>& columns);

  // Trusted SQL of our own (DDL, DROP) on the setup session: the engine error, or "".
  std::string RunTrusted(const std::string& sql);
  // The author-SQL session (the same statement gate as a writable DUCKDB datasource).
  Connection& session();
  // Interrupts the running statement (any thread).
  void Interrupt();
  bool HasTable(const std::string& table);
  // DuckDB's own accounting of its buffers (duckdb_memory()).
  int64_t MemoryUsedBytes();
  int64_t memory_limit_bytes() const { return limits_.memory_limit_bytes; }

  // Rows into one staged table, on a connection of its own. Values are canonical text cast by
  // the engine to the column's type; binary cells are appended as bytes.
  class Appender {
   public:
    ~Appender();
    Appender(const Appender&) = delete;
    Appender& operator=(const Appender&) = delete;
    // One row: the engine error, or "".
    std::string AppendRow(const std::vector<std::optional<std::string_view>>& cells,
                          const std::vector<bool>& binary);
    // Writes the buffered rows into the table: the engine error, or "".
    std::string Flush();

   private:
    friend class DuckdbStaging;
    Appender() = default;
    struct State;
    std::unique_ptr<State> state_;
  };
  // nullptr with `error` set when the table cannot be appended to.
  std::unique_ptr<Appender> OpenAppender(const std::string& table, std::string& error);

 private:
  Limits limits_;
  std::shared_ptr<DuckdbEngine> engine_;
  std::unique_ptr<Connection> session_;
  void* setup_ = nullptr;  // duckdb_connection for trusted statements
};

}  // namespace dp
