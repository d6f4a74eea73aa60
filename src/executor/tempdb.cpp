#include "datapipelines/executor/tempdb.hpp"
#include "datapipelines/connectors/sql_quoting.hpp"

#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <algorithm>
#include <charconv>

#include "connectors/sqlite/sqlite_connection.hpp"
#include "datapipelines/connectors/duckdb/duckdb_staging.hpp"
#include "datapipelines/connectors/sqlite/sqlite_hardening.hpp"
#include "datapipelines/connectors/wire/wire_encoder.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "tempdb_columns.hpp"
#include "tempdb_row_batch.hpp"

namespace dp {
namespace {

constexpr const char* kDiskFull = "database or disk is full";

struct StmtCloser {
  void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
};
using StmtPtr = std::unique_ptr<sqlite3_stmt, StmtCloser>;

DomainError CreationFailed(const std::string& reason, const char* engine = "sqlite") {
  return DomainError(errc::kStagingCreationFailed,
                     "the execution's tempdb could not be created: " + reason,
                     Json{{"engine", engine}, {"reason", reason}});
}

// DuckDB past its memory_limit: "Out of Memory Error: …", or a failed block allocation
// surfacing through the appender's commit.
bool IsOutOfMemory(const std::string& message) {
  return message.find("Out of Memory") != std::string::npos ||
         message.find("could not allocate block") != std::string::npos;
}

// A staged cell as the DuckDB appender casts it: flags as true/false, temporal values in
// their canonical (UTC) form without the zone suffix; everything else the driver's text.
std::optional<std::string_view> DuckCell(const TypeMapping& mapping, std::string_view value,
                                         std::string& scratch) {
  switch (mapping.type) {
    case CanonicalType::kBoolean:
      if (value == "t" || value == "true" || value == "TRUE" || value == "1" || value == "\x01")
        return std::string_view("true");
      if (value == "f" || value == "false" || value == "FALSE" || value == "0" ||
          (value.size() == 1 && value[0] == '\0'))
        return std::string_view("false");
      return value;
    case CanonicalType::kTimestamp:
      if (auto normal = WireEncoder::NormalizeTimestamp(value)) {
        scratch = *normal;
        if (!scratch.empty() && scratch.back() == 'Z') scratch.pop_back();
        return std::string_view(scratch);
      }
      return value;
    case CanonicalType::kTime:
      if (auto normal = WireEncoder::NormalizeTime(value))
        return std::string_view(scratch = *normal);
      return value;
    case CanonicalType::kDate:
      if (auto normal = WireEncoder::NormalizeDate(value))
        return std::string_view(scratch = *normal);
      return value;
    default:
      return value;
  }
}

// The driver message of a connector error, when it carries one.
std::string DriverMessage(const DomainError& error) {
  const Json& details = error.details();
  if (!details.is_object()) return "";
  return details.value("driver_message", details.value("reason", std::string()));
}

}  // namespace

// ---- TableWriter ----------------------------------------------------------------------

struct Tempdb::TableWriter::State {
  State(Tempdb* owner, std::string table_name, const std::vector<ColumnSchema>& columns)
      : db(owner), table(std::move(table_name)), batch(table, columns) {}

  Tempdb* db;
  std::string table;
  RowBatch batch;
  StmtPtr insert;
  int batch_rows = 1000;
  int64_t staged = 0;
  bool finished = false;
  // TempdbEngine::kDuckdb: rows go through the appender, flushed every batch_rows.
  std::unique_ptr<DuckdbStaging::Appender> appender;
  std::vector<TypeMapping> mappings;
  std::vector<bool> binary;
  std::vector<std::string> scratch;
  std::vector<std::optional<std::string_view>> cells;
  int pending = 0;

  std::vector<std::string> names;

  void DuckAppend(const RowView& row);
  void DuckFlush();
  // The same refusal as SQLite's staging: an INTEGER past int64 is a value overflow.
  void CheckInt64(std::size_t column, std::string_view value) const;
};

void Tempdb::TableWriter::State::CheckInt64(std::size_t column, std::string_view value) const {
  std::string_view digits = value;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) return;
  int64_t parsed = 0;
  if (value[0] == '+') value.remove_prefix(1);
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (ec == std::errc() && ptr == value.data() + value.size()) return;
  throw DomainError(errc::kStagingValueOverflow,
                    "a value of column '" + names[column] + "' staged as '" + table +
                        "' exceeds the 64-bit integer range; CAST it in the source query",
                    Json{{"table", table}, {"column", names[column]}, {"type", "INTEGER"}});
}

void Tempdb::TableWriter::State::DuckAppend(const RowView& row) {
  for (std::size_t i = 0; i < mappings.size(); ++i) {
    if (i >= row.size() || row.is_null(i)) {
      cells[i].reset();
      continue;
    }
    std::string_view value = *row.text(i);
    if (mappings[i].type == CanonicalType::kInteger) CheckInt64(i, value);
    cells[i] = DuckCell(mappings[i], value, scratch[i]);
  }
  std::string error = appender->AppendRow(cells, binary);
  if (!error.empty()) db->ThrowDuckStaging(table, "appending a row", error);
  if (++pending >= batch_rows) DuckFlush();
}

void Tempdb::TableWriter::State::DuckFlush() {
  if (pending == 0) return;
  std::lock_guard lock(db->mutex_);
  std::string error = appender->Flush();
  if (!error.empty()) db->ThrowDuckStaging(table, "inserting a batch", error);
  staged += pending;
  pending = 0;
}

Tempdb::TableWriter::TableWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}

Tempdb::TableWriter::TableWriter(TableWriter&& other) noexcept = default;

Tempdb::TableWriter::~TableWriter() {
  if (!state_) return;
  std::lock_guard lock(state_->db->mutex_);
  state_->appender.reset();  // unflushed rows are discarded with it
  state_->insert.reset();    // finalized under the lock: the staging handle is shared
  if (!state_->finished) state_->db->DropTable(state_->table);
}

void Tempdb::TableWriter::Append(const RowView& row) {
  State& state = *state_;
  if (state.appender) return state.DuckAppend(row);
  state.batch.Append(row);
  if (state.batch.rows() < state.batch_rows) return;
  state.db->InsertBatch(state.table, state.insert.get(), state.batch);
  state.staged += state.batch.rows();
  state.batch.Clear();
}

int64_t Tempdb::TableWriter::Finish() {
  State& state = *state_;
  if (state.appender) {
    state.DuckFlush();
    state.appender.reset();
    state.finished = true;
    return state.staged;
  }
  if (state.batch.rows() > 0) {
    state.db->InsertBatch(state.table, state.insert.get(), state.batch);
    state.staged += state.batch.rows();
    state.batch.Clear();
  }
  state.finished = true;
  return state.staged;
}

// ---- Tempdb ---------------------------------------------------------------------------

Tempdb::Tempdb(TempdbOptions options) : options_(options) {
  if (options_.insert_batch_rows < 1) options_.insert_batch_rows = 1;
  if (options_.engine == TempdbEngine::kDuckdb) {
    DuckdbStaging::Limits limits;
    limits.memory_limit_bytes = options_.max_memory_bytes;
    try {
      duck_ = std::make_unique<DuckdbStaging>(limits);
    } catch (const std::exception& e) {
      throw CreationFailed(e.what(), "duckdb");
    }
    return;
  }
  Open();
  session_ = SqliteConnection::Borrow(db_);
}

Tempdb::~Tempdb() {
  // Closing the only connection frees the in-memory database and every table in it.
  session_.reset();
  duck_.reset();
  if (db_) sqlite3_close_v2(db_);
}

const char* Tempdb::engine_name() const { return duck_ ? "duckdb" : "sqlite"; }

DomainError Tempdb::DuckMemoryExceeded(const std::string& table) const {
  std::string what = table.empty() ? "a tempdb statement" : "staging '" + table + "'";
  return DomainError(errc::kStagingMemoryLimitExceeded,
                     what + " exceeded the tempdb memory budget of " +
                         std::to_string(options_.max_memory_bytes) +
                         " bytes; raise settings.tempdb.config.max_memory_mb or stage fewer rows",
                     Json{{"limit_bytes", options_.max_memory_bytes},
                          {"used_bytes", duck_->MemoryUsedBytes()},
                          {"table", table.empty() ? Json() : Json(table)}});
}

void Tempdb::ThrowDuckStaging(const std::string& table, const std::string& action,
                              const std::string& raw) const {
  if (IsOutOfMemory(raw)) throw DuckMemoryExceeded(table);
  // DuckDB's conversion errors quote the value: a staged row's data never goes into an error.
  std::string message =
      raw.rfind("Conversion Error", 0) == 0
          ? "Conversion Error: a value does not convert to its staged column's type"
          : raw;
  if (raw.find("Conversion Error") != std::string::npos &&
      raw.find("out of range") != std::string::npos) {
    throw DomainError(
        errc::kStagingValueOverflow,
        "a value staged as '" + table + "' exceeds its column's range; CAST it in the source query",
        Json{{"table", table}, {"driver_message", message}});
  }
  Json details{{"table", table}, {"driver_message", message}};
  if (message.find("INTERRUPT") != std::string::npos ||
      message.find("Interrupted") != std::string::npos) {
    details["reason"] = "cancelled";
  }
  throw DomainError(errc::kNodeStagingFailed,
                    "staging '" + table + "' failed while " + action + ": " + message, details);
}

void Tempdb::Open() {
  // Private to this handle (no shared cache): nothing else in the process can reach it.
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY |
              SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE;
  int rc = sqlite3_open_v2(":memory:", &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string reason = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw CreationFailed(reason);
  }
  // The shared hardening (no ATTACH, no extensions, no FTS3 tokenizer, defensive, authorizer).
  try {
    SqliteHardening::Harden(db_, SqliteRole::kTempdb);
  } catch (const std::exception& e) {
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw CreationFailed(e.what());
  }
  page_size_ = Pragma("PRAGMA page_size");
  if (page_size_ <= 0) page_size_ = 4096;
  max_pages_ = std::max<int64_t>(1, options_.max_memory_bytes / page_size_);
  ReassertPageLimit();
}

int64_t Tempdb::Pragma(const char* sql) const {
  sqlite3_stmt* raw = nullptr;
  {
    SqliteHardening::TrustedScope ours;  // our own PRAGMA, not author SQL
    if (sqlite3_prepare_v2(db_, sql, -1, &raw, nullptr) != SQLITE_OK) return -1;
  }
  StmtPtr stmt(raw);
  return sqlite3_step(stmt.get()) == SQLITE_ROW ? sqlite3_column_int64(stmt.get(), 0) : -1;
}

// Author SQL could raise the limit (PRAGMA max_page_count); it is put back before every
// statement, and CheckMemory catches a statement that raised it and grew past it.
void Tempdb::ReassertPageLimit() {
  std::string sql = "PRAGMA max_page_count = " + std::to_string(max_pages_);
  Pragma(sql.c_str());
}

void Tempdb::CheckMemory() {
  if (Pragma("PRAGMA page_count") <= max_pages_) return;
  ReassertPageLimit();
  throw DomainError(errc::kStagingMemoryLimitExceeded,
                    "the tempdb outgrew its memory budget of " +
                        std::to_string(options_.max_memory_bytes) + " bytes",
                    Json{{"limit_bytes", options_.max_memory_bytes},
                         {"used_bytes", memory_used_bytes()},
                         {"table", nullptr}});
}

void Tempdb::ThrowStaging(int rc, const std::string& table, const std::string& action) {
  std::string message = sqlite3_errmsg(db_);
  int primary = rc & 0xff;
  if (primary == SQLITE_FULL) {
    throw DomainError(errc::kStagingMemoryLimitExceeded,
                      "staging '" + table + "' exceeded the tempdb memory budget of " +
                          std::to_string(options_.max_memory_bytes) +
                          " bytes; raise settings.tempdb.config.max_memory_mb or stage fewer rows",
                      Json{{"limit_bytes", options_.max_memory_bytes},
                           {"used_bytes", memory_used_bytes()},
                           {"table", table}});
  }
  Json details{{"table", table}, {"driver_message", message}};
  if (primary == SQLITE_INTERRUPT) details["reason"] = "cancelled";
  throw DomainError(errc::kNodeStagingFailed,
                    "staging '" + table + "' failed while " + action + ": " + message, details);
}

Tempdb::TableWriter Tempdb::CreateTable(const std::string& table,
                                        const std::vector<ColumnSchema>& columns) {
  tempdb_columns::ValidateNames(table, columns);
  tempdb_columns::ValidatePrecision(table, columns);
  auto state = std::make_unique<TableWriter::State>(this, table, columns);
  state->batch_rows = options_.insert_batch_rows;
  std::lock_guard lock(mutex_);
  if (duck_) {
    if (HasTable(table)) {
      throw DomainError(errc::kStagingTableAlreadyExists,
                        "tempdb table '" + table + "' is already staged in this execution",
                        Json{{"table", table}});
    }
    std::string failure = duck_->RunTrusted(DuckdbStaging::CreateTableSql(table, columns));
    if (!failure.empty()) ThrowDuckStaging(table, "creating the table", failure);
    std::string error;
    state->appender = duck_->OpenAppender(table, error);
    if (!state->appender) {
      DropTable(table);
      ThrowDuckStaging(table, "opening the appender", error);
    }
    for (const auto& column : columns) {
      state->names.push_back(column.name);
      state->mappings.push_back(column.mapping);
      state->binary.push_back(column.mapping.type == CanonicalType::kBinary);
    }
    state->scratch.resize(columns.size());
    state->cells.resize(columns.size());
    // The appender buffers a vector at a time; a batch is never smaller than that.
    state->batch_rows = std::max(state->batch_rows, 2048);
    return TableWriter(std::move(state));
  }
  DropPending();
  if (HasTable(table)) {
    throw DomainError(errc::kStagingTableAlreadyExists,
                      "tempdb table '" + table + "' is already staged in this execution",
                      Json{{"table", table}});
  }
  ReassertPageLimit();
  std::string ddl = tempdb_columns::CreateTableSql(table, columns);
  int rc = sqlite3_exec(db_, ddl.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) ThrowStaging(rc, table, "creating the table");
  std::string insert = tempdb_columns::InsertSql(table, columns, 1);
  sqlite3_stmt* raw = nullptr;
  rc = sqlite3_prepare_v3(db_, insert.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &raw, nullptr);
  state->insert.reset(raw);
  if (rc != SQLITE_OK) {
    state->insert.reset();
    DropTable(table);
    ThrowStaging(rc, table, "preparing the insert");
  }
  return TableWriter(std::move(state));
}

// One short transaction per batch: the staging handle is shared by every writer, so a
// transaction spanning a node's whole source read would serialize all staging behind it and
// hold shared-cache locks that fail other nodes' reads. A writer that never finishes drops
// its table, so readers never see a partial result under the table's name either way.
void Tempdb::InsertBatch(const std::string& table, sqlite3_stmt* insert, const RowBatch& batch) {
  std::lock_guard lock(mutex_);
  ReassertPageLimit();
  int rc = sqlite3_exec(db_, "BEGIN", nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) ThrowStaging(rc, table, "beginning a batch");
  for (int row = 0; row < batch.rows() && rc == SQLITE_OK; ++row) {
    rc = batch.Bind(insert, row, 1);
    if (rc == SQLITE_OK) {
      rc = sqlite3_step(insert);
      rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    }
    sqlite3_reset(insert);
  }
  if (rc == SQLITE_OK) rc = sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) return;
  // ThrowStaging reads sqlite3_errmsg first; the ROLLBACK runs after it.
  try {
    ThrowStaging(rc, table, "inserting a batch");
  } catch (...) {
    if (!sqlite3_get_autocommit(db_)) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    throw;
  }
}

void Tempdb::DropTable(const std::string& table) {
  std::lock_guard lock(mutex_);
  if (duck_) {
    std::string failure = duck_->RunTrusted("DROP TABLE IF EXISTS " + DoubleQuoted(table));
    if (!failure.empty()) {
      spdlog::warn("pipeline.staging.cleanup_failed: dropping tempdb table '{}': {}", table,
                   failure);
    }
    return;
  }
  std::string sql = "DROP TABLE IF EXISTS " + DoubleQuoted(table);
  int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) return;
  if ((rc & 0xff) == SQLITE_LOCKED) {
    // A statement is still reading (the writer died inside a Query callback): empty the
    // table now, drop it once nothing is running.
    sqlite3_exec(db_, ("DELETE FROM " + DoubleQuoted(table)).c_str(), nullptr, nullptr, nullptr);
    pending_drops_.push_back(table);
    return;
  }
  // Never masks the failure that abandoned the writer; the table goes with the database.
  spdlog::warn("pipeline.staging.cleanup_failed: dropping tempdb table '{}': {}", table,
               sqlite3_errmsg(db_));
}

void Tempdb::DropPending() {
  if (pending_drops_.empty() || duck_) return;
  // Only a running statement blocks a DROP; live writers' prepared INSERTs do not.
  for (sqlite3_stmt* s = sqlite3_next_stmt(db_, nullptr); s; s = sqlite3_next_stmt(db_, s)) {
    if (sqlite3_stmt_busy(s)) return;
  }
  std::vector<std::string> tables;
  tables.swap(pending_drops_);
  for (const auto& table : tables) DropTable(table);
}

QueryResult Tempdb::Query(std::string_view sql, const BindMap& binds, const QueryOptions& options,
                          const RowCallback& on_row, const ColumnsCallback& on_columns) {
  std::lock_guard lock(mutex_);
  if (duck_) {
    try {
      return duck_->session().Query(sql, binds, options, on_row, on_columns);
    } catch (const DomainError& error) {
      if (error.code() == errc::kNodeQueryFailed && IsOutOfMemory(DriverMessage(error))) {
        throw DuckMemoryExceeded("");
      }
      throw;
    }
  }
  DropPending();
  ReassertPageLimit();
  QueryResult result;
  try {
    result = session_->Query(sql, binds, options, on_row, on_columns);
  } catch (const DomainError& error) {
    if (error.code() != errc::kNodeQueryFailed || DriverMessage(error) != kDiskFull) throw;
    throw DomainError(errc::kStagingMemoryLimitExceeded,
                      "a tempdb statement exceeded the memory budget of " +
                          std::to_string(options_.max_memory_bytes) + " bytes",
                      Json{{"limit_bytes", options_.max_memory_bytes},
                           {"used_bytes", memory_used_bytes()},
                           {"table", nullptr}});
  }
  CheckMemory();
  return result;
}

int64_t Tempdb::Execute(std::string_view sql, const BindMap& binds) {
  std::lock_guard lock(mutex_);
  if (duck_) {
    int64_t changed =
        Query(sql, binds, QueryOptions{}, [](const RowView&) { return true; }).affected_rows;
    return std::max<int64_t>(0, changed);
  }
  // sqlite3_changes keeps the last DML's count through DDL: the delta is exact for both.
  int64_t before = sqlite3_total_changes64(db_);
  Query(sql, binds, QueryOptions{}, [](const RowView&) { return true; });
  return sqlite3_total_changes64(db_) - before;
}

void Tempdb::Cancel() {
  // Safe from any thread, without the lock (the running statement holds it); on an idle
  // handle the interrupt is cleared when the next statement starts.
  if (duck_) return duck_->Interrupt();
  sqlite3_interrupt(db_);
}

int64_t Tempdb::memory_used_bytes() const {
  std::lock_guard lock(mutex_);
  if (duck_) return duck_->MemoryUsedBytes();
  // Pages freed by a DROP stay in the database but are reused first: count live pages.
  return (Pragma("PRAGMA page_count") - Pragma("PRAGMA freelist_count")) * page_size_;
}

bool Tempdb::HasTable(const std::string& table) const {
  std::lock_guard lock(mutex_);
  if (duck_) return duck_->HasTable(table);
  sqlite3_stmt* raw = nullptr;
  const char* sql =
      "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?1 COLLATE NOCASE";
  if (sqlite3_prepare_v2(db_, sql, -1, &raw, nullptr) != SQLITE_OK) return false;
  StmtPtr stmt(raw);
  sqlite3_bind_text(stmt.get(), 1, table.data(), static_cast<int>(table.size()), SQLITE_STATIC);
  return sqlite3_step(stmt.get()) == SQLITE_ROW;
}

void Tempdb::WithSession(const std::function<void(Connection&)>& fn) {
  std::lock_guard lock(mutex_);
  if (duck_) return fn(duck_->session());
  DropPending();
  ReassertPageLimit();
  fn(*session_);
}

}  // namespace dp
