#pragma once
// tempdb (DESIGN.md §7, staging.md): one private in-memory SQLite database per execution.
// Staged tables are created from the canonical schema and filled in batches; queries stream
// rows back with the canonical types the staged columns had. Everything is dropped with the
// object. All methods are thread-safe: one SQLite handle serves staging and queries, and
// access to it is serialized, so parallel nodes never meet SQLITE_LOCKED/SQLITE_BUSY.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/connectors/bind_value.hpp"
#include "datapipelines/connectors/column_schema.hpp"
#include "datapipelines/connectors/query_options.hpp"
#include "datapipelines/connectors/row_view.hpp"
#include "datapipelines/domain/domain_error.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace dp {

class Connection;
class DuckdbStaging;
class RowBatch;
class SqliteConnection;

// settings.tempdb.engine: SQLITE (the default; H2 is its alias) or DUCKDB (beyond the spec:
// an in-memory DuckDB, columnar, for joins and aggregations over millions of staged rows).
enum class TempdbEngine { kSqlite, kDuckdb };

struct TempdbOptions {
  TempdbEngine engine = TempdbEngine::kSqlite;
  // settings.tempdb.config.max_memory_mb, clamped by configuration. Bounds the database's
  // own pages (PRAGMA max_page_count), so it is this execution's budget alone.
  int64_t max_memory_bytes = 1024LL * 1024 * 1024;
  // Rows buffered per INSERT batch; each batch is inserted in one short transaction.
  int insert_batch_rows = 1000;
};

class Tempdb {
 public:
  // Throws DomainError(pipeline.staging.creation_failed) when the database cannot be opened.
  explicit Tempdb(TempdbOptions options = {});
  ~Tempdb();
  Tempdb(const Tempdb&) = delete;
  Tempdb& operator=(const Tempdb&) = delete;

  // Stages one result set into a table created by CreateTable. Rows are converted from the
  // source row's canonical cells as they arrive and inserted a batch at a time, the lock held
  // only for the INSERT (never across the source read, staging.md §4.3). Not thread-safe
  // itself: one writer belongs to one node. Destroyed without Finish() (an error, a cancel),
  // the table is dropped, so no partial result is ever visible under its name.
  class TableWriter {
   public:
    TableWriter(TableWriter&& other) noexcept;
    TableWriter& operator=(TableWriter&&) = delete;
    TableWriter(const TableWriter&) = delete;
    ~TableWriter();

    // Throws pipeline.staging.value_overflow / precision_overflow for a value SQLite cannot
    // hold exactly, memory_limit_exceeded when a batch does not fit the budget.
    void Append(const RowView& row);
    // Inserts the last batch and returns the rows staged.
    int64_t Finish();

   private:
    friend class Tempdb;
    struct State;
    explicit TableWriter(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
  };

  // CREATE TABLE "table" from the canonical columns (never IF NOT EXISTS). Throws
  // pipeline.staging.invalid_column_name (details: table, column, ordinal, reason),
  // table_already_exists, precision_overflow (declared precision beyond 100000).
  TableWriter CreateTable(const std::string& table, const std::vector<ColumnSchema>& columns);

  // Runs a tempdb-source statement, streaming rows. A column selected straight from a staged
  // column keeps its canonical type, precision and scale; computed expressions get what
  // SQLite reports. SQL errors: pipeline.node.query_execution_failed (SQLite's message in
  // details.driver_message); a statement that outgrows the budget: memory_limit_exceeded.
  QueryResult Query(std::string_view sql, const BindMap& binds, const QueryOptions& options,
                    const RowCallback& on_row, const ColumnsCallback& on_columns = {});
  // DML/DDL: the rows changed (0 for DDL).
  int64_t Execute(std::string_view sql, const BindMap& binds = {});
  // Interrupts whatever statement is running (sqlite3_interrupt); callable from any thread.
  void Cancel();

  // Bytes of database pages in use (page_count × page_size): measured, not estimated.
  int64_t memory_used_bytes() const;
  int64_t max_memory_bytes() const { return options_.max_memory_bytes; }
  TempdbEngine engine() const { return options_.engine; }
  // "sqlite" | "duckdb", as payloads and error details name the engine.
  const char* engine_name() const;
  bool HasTable(const std::string& table) const;

  // Exclusive use of the query session as a Connection, for callers that drive one
  // themselves (sql_probe's scratch check runs its EXPLAIN + probe here, on the executor's
  // engine and mode). Errors are the session's own, untranslated.
  void WithSession(const std::function<void(Connection&)>& fn);

 private:
  friend class TableWriter;
  void InsertBatch(const std::string& table, sqlite3_stmt* insert, const RowBatch& batch);
  void DropTable(const std::string& table);
  void DropPending();
  void Open();
  [[noreturn]] void ThrowStaging(int rc, const std::string& table, const std::string& action);
  void CheckMemory();
  void ReassertPageLimit();
  int64_t Pragma(const char* sql) const;

  TempdbOptions options_;
  int64_t page_size_ = 4096;
  int64_t max_pages_ = 0;
  // Recursive: a Query's row callback may stage into another table (tempdb → tempdb) on
  // the same thread; other threads wait.
  mutable std::recursive_mutex mutex_;
  // A private ":memory:" database: writers use it raw (prepared INSERT reuse), queries go
  // through session_ over the same handle.
  sqlite3* db_ = nullptr;
  std::unique_ptr<SqliteConnection> session_;
  // Tables an abandoned writer could not drop yet (a statement was still reading).
  std::vector<std::string> pending_drops_;
  // TempdbEngine::kDuckdb: the DuckDB staging engine; db_ and session_ stay null.
  std::unique_ptr<DuckdbStaging> duck_;
  DomainError DuckMemoryExceeded(const std::string& table) const;
  [[noreturn]] void ThrowDuckStaging(const std::string& table, const std::string& action,
                                     const std::string& message) const;
};

}  // namespace dp
