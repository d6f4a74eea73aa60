#include "datapipelines/store/sqlite_metadata_store.hpp"

#include <sqlite3.h>

#include <cctype>
#include <stdexcept>

#include "datapipelines/connectors/sqlite/sqlite_hardening.hpp"
#include "datapipelines/store/migration.hpp"
#include "datapipelines/store/store_outage.hpp"
#include "datapipelines/util/clock.hpp"

namespace dp {
namespace {

constexpr int kBusyTimeoutMs = 5000;

// Statements are written with $1..$n (the Postgres form); SQLite reads ?1..?n the same way.
std::string ToSqlitePlaceholders(std::string sql) {
  for (std::size_t i = 0; i + 1 < sql.size(); ++i) {
    if (sql[i] == '$' && std::isdigit(static_cast<unsigned char>(sql[i + 1]))) sql[i] = '?';
  }
  return sql;
}

void Bind(sqlite3_stmt* stmt, const std::vector<SqlValue>& params) {
  for (std::size_t i = 0; i < params.size(); ++i) {
    int index = static_cast<int>(i) + 1;
    const SqlValue& value = params[i];
    if (const auto* text = std::get_if<std::string>(&value)) {
      sqlite3_bind_text(stmt, index, text->data(), static_cast<int>(text->size()),
                        SQLITE_TRANSIENT);
    } else if (const auto* number = std::get_if<int64_t>(&value)) {
      sqlite3_bind_int64(stmt, index, *number);
    } else {
      sqlite3_bind_null(stmt, index);
    }
  }
}

SqlRow ReadRow(sqlite3_stmt* stmt) {
  int columns = sqlite3_column_count(stmt);
  SqlRow row(columns);
  for (int c = 0; c < columns; ++c) {
    if (sqlite3_column_type(stmt, c) == SQLITE_NULL) continue;
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
    row[c] = std::string(text, sqlite3_column_bytes(stmt, c));
  }
  return row;
}

bool IsUniqueViolation(int extended_rc) {
  return extended_rc == SQLITE_CONSTRAINT_UNIQUE || extended_rc == SQLITE_CONSTRAINT_PRIMARYKEY;
}

}  // namespace

SqliteMetadataStore::SqliteMetadataStore(const std::string& path) {
  // NOMUTEX: mutex_ already serializes every use of the one connection.
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("cannot open SQLite metadata store '" + path + "': " + message);
  }
  try {
    SqliteHardening::Harden(db_, SqliteRole::kMetadata);
  } catch (const std::exception& e) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("cannot harden SQLite metadata store '" + path + "': " + e.what());
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  std::lock_guard lock(mutex_);
  // WAL lets readers in other processes (CLI, backups) run beside the server.
  ExecScript("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;");
}

SqliteMetadataStore::~SqliteMetadataStore() {
  for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
  sqlite3_close(db_);
}

int SqliteMetadataStore::Migrate() {
  std::lock_guard lock(mutex_);
  ExecScript(
      "CREATE TABLE IF NOT EXISTS schema_migrations ("
      "version INTEGER PRIMARY KEY, applied_at_ms BIGINT NOT NULL)");
  for (const Migration& m : SqliteMigrations()) ApplyMigrationLocked(m.version, std::string(m.sql));
  return SchemaVersionLocked();
}

bool SqliteMetadataStore::ApplyMigrationLocked(int version, const std::string& sql) {
  // IMMEDIATE takes the write lock up front, so two processes migrating the same file
  // serialize here (busy_timeout) instead of both applying the script.
  ExecScript("BEGIN IMMEDIATE");
  try {
    bool applied =
        !RunLocked("SELECT 1 FROM schema_migrations WHERE version = $1", {int64_t{version}})
             .empty();
    if (!applied) {
      ExecScript(sql);
      RunLocked("INSERT INTO schema_migrations (version, applied_at_ms) VALUES ($1, $2)",
                {int64_t{version}, NowMs()});
    }
    ExecScript("COMMIT");
    return !applied;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

int SqliteMetadataStore::SchemaVersion() {
  std::lock_guard lock(mutex_);
  return SchemaVersionLocked();
}

int SqliteMetadataStore::SchemaVersionLocked() {
  auto exists = RunLocked(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'", {});
  if (exists.empty()) return 0;
  auto rows = RunLocked("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", {});
  return std::stoi(rows.at(0).at(0).value_or("0"));
}

bool SqliteMetadataStore::Ping() {
  try {
    std::lock_guard lock(mutex_);
    if (writes_failing_) return false;
    auto rows = RunLocked("SELECT 1", {});
    return rows.size() == 1 && rows[0].at(0) == "1";
  } catch (const std::exception&) {
    return false;
  }
}

std::vector<SqlRow> SqliteMetadataStore::Query(const std::string& sql,
                                               const std::vector<SqlValue>& params) {
  std::lock_guard lock(mutex_);
  return RunLocked(sql, params);
}

int64_t SqliteMetadataStore::Execute(const std::string& sql, const std::vector<SqlValue>& params) {
  std::lock_guard lock(mutex_);
  RunLocked(sql, params);
  const int64_t changed = sqlite3_changes64(db_);
  if (changed > 0) writes_failing_ = false;  // a commit reached the disk again
  return changed;
}

std::vector<SqlRow> SqliteMetadataStore::RunLocked(const std::string& sql,
                                                   const std::vector<SqlValue>& params) {
  sqlite3_stmt* stmt = Prepare(sql);
  // Reset on every exit so the cached statement holds no read lock or stale bindings.
  struct Reset {
    sqlite3_stmt* stmt;
    ~Reset() {
      sqlite3_reset(stmt);
      sqlite3_clear_bindings(stmt);
    }
  } reset{stmt};
  Bind(stmt, params);
  std::vector<SqlRow> rows;
  for (;;) {
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) return rows;
    if (rc != SQLITE_ROW) Fail(rc, "statement failed");
    rows.push_back(ReadRow(stmt));
  }
}

sqlite3_stmt* SqliteMetadataStore::Prepare(const std::string& sql) {
  auto it = statements_.find(sql);
  if (it != statements_.end()) return it->second;
  sqlite3_stmt* stmt = nullptr;
  std::string native = ToSqlitePlaceholders(sql);
  int rc = sqlite3_prepare_v3(db_, native.c_str(), static_cast<int>(native.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) Fail(rc, "prepare failed");
  statements_.emplace(sql, stmt);
  return stmt;
}

void SqliteMetadataStore::ExecScript(const std::string& sql) {
  char* error = nullptr;
  int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
  sqlite3_free(error);
  if (rc != SQLITE_OK) Fail(rc, "script failed");
}

void SqliteMetadataStore::Fail(int rc, const std::string& context) {
  int extended = sqlite3_extended_errcode(db_);
  std::string message = "SQLite metadata store: " + context + ": " + sqlite3_errmsg(db_);
  if (IsUniqueViolation(extended)) throw DuplicateKeyError(message);
  switch (rc & 0xff) {  // the primary code
    case SQLITE_FULL:
      writes_failing_ = true;
      ThrowMetadataStorageFull("sqlite", message);
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
      writes_failing_ = true;
      ThrowMetadataUnavailable("sqlite", message);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:  // another process held the file past the busy timeout
      ThrowMetadataUnavailable("sqlite", message);
    default:
      throw std::runtime_error(message);
  }
}

}  // namespace dp
