#include "sqlite_connection.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "connectors/bind_support.hpp"
#include "connectors/driver_errors.hpp"
#include "connectors/pool/statement_guard.hpp"
#include "datapipelines/connectors/connector_factory.hpp"
#include "datapipelines/connectors/named_parameters.hpp"
#include "datapipelines/connectors/sqlite/sqlite_hardening.hpp"
#include "datapipelines/connectors/sqlite/sqlite_type_mapper.hpp"
#include "datapipelines/connectors/type_mapper.hpp"
#include "datapipelines/connectors/wire/wire_encoder.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

// Installs a progress handler that stops the running statement once its guard has fired;
// removed again when the query ends.
class ProgressCheck {
 public:
  ProgressCheck(sqlite3* db, const StatementGuard& guard) : db_(db) {
    sqlite3_progress_handler(db_, kProgressOps, &ProgressCheck::Fired,
                             const_cast<StatementGuard*>(&guard));
  }
  ~ProgressCheck() { sqlite3_progress_handler(db_, 0, nullptr, nullptr); }
  ProgressCheck(const ProgressCheck&) = delete;
  ProgressCheck& operator=(const ProgressCheck&) = delete;

 private:
  static constexpr int kProgressOps = 1000;  // VM steps between checks: microseconds
  static int Fired(void* guard) { return static_cast<StatementGuard*>(guard)->fired() ? 1 : 0; }
  sqlite3* db_;
};

// Result codes that mean the database itself is gone or unusable, not the statement.
bool IsConnectionFamily(int rc) {
  int primary = rc & 0xff;
  return primary == SQLITE_BUSY || primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN ||
         primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT;
}

struct StmtCloser {
  void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
};
using StmtPtr = std::unique_ptr<sqlite3_stmt, StmtCloser>;

bool IsBlank(const char* text) {
  for (; text && *text; ++text) {
    if (!std::isspace(static_cast<unsigned char>(*text))) return false;
  }
  return true;
}

SourceType ColumnDeclaredType(const std::string& declared) {
  SourceType source;
  source.name = declared;
  source.display = declared;
  return source;
}

TypeMapping MapByStorageClass(int storage) {
  switch (storage) {
    case SQLITE_INTEGER:
      return Simple(CanonicalType::kInteger);
    case SQLITE_FLOAT:
      return Approximate(15);
    case SQLITE_BLOB:
      return Simple(CanonicalType::kBinary);
    case SQLITE_NULL:
      return Simple(CanonicalType::kNull);
    default:
      return Simple(CanonicalType::kString);
  }
}

// A TIME/TIMESTAMP bind in the form the column stores, so `=` matches and `>=` keeps the
// boundary row. tempdb stages the wire form ("2026-08-05T19:30:00.000000Z",
// "19:30:00.000000"); a SQLite file holds what SQLite's date functions write
// ("2026-08-05 19:30:00", "19:30:00", a fraction only when non-zero: ".500").
std::string SqliteTemporalText(const BindValue& bind, const std::string& name, bool staged) {
  const bool timestamp = bind.type == CanonicalType::kTimestamp;
  if (!bind.value.is_string()) return *bind.DriverText(name);  // refused there, typed
  const auto& raw = bind.value.get_ref<const std::string&>();
  auto wire = timestamp ? WireEncoder::NormalizeTimestamp(raw) : WireEncoder::NormalizeTime(raw);
  if (!wire) return *bind.DriverText(name);  // the typed refusal
  if (staged) return *wire;
  std::string text = *wire;
  if (timestamp) {
    text[10] = ' ';
    text.pop_back();  // the Z: SQLite text is UTC by convention
  }
  std::size_t dot = text.rfind('.');
  while (text.size() > dot + 4 && text.back() == '0') text.pop_back();
  if (text.compare(dot, std::string::npos, ".000") == 0) text.erase(dot);
  return text;
}

}  // namespace

SqliteConnection::SqliteConnection(const ConnectorConfig& config) : config_(config) {
  int flags = config.readonly || config.probe ? SQLITE_OPEN_READONLY
                                              : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  // URI names allow a shared in-memory database across pooled sessions
  // ("file:tempdb_x?mode=memory&cache=shared"), which tempdb needs.
  flags |= SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
  int rc = sqlite3_open_v2(config.sqlite_path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw driver_errors::Unreachable(config_, message);
  }
  // In-process engine over author SQL: the shared hardening (no ATTACH, no extensions, no
  // FTS3 tokenizer, defensive, authorizer); a probe's handle is read-only whatever the mode.
  try {
    SqliteHardening::Harden(db_, config.probe ? SqliteRole::kProbe : SqliteRole::kDatasource);
  } catch (const std::exception& e) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw driver_errors::Unreachable(config_, e.what());
  }
  sqlite3_busy_timeout(db_, 5000);
  if (config.readonly || config.probe) {
    SqliteHardening::TrustedScope ours;
    sqlite3_exec(db_, "PRAGMA query_only = 1", nullptr, nullptr, nullptr);
  }
}

std::unique_ptr<SqliteConnection> SqliteConnection::Borrow(sqlite3* db) {
  std::unique_ptr<SqliteConnection> session(new SqliteConnection());
  session->config_.dialect = Dialect::kSqlite;
  session->db_ = db;
  session->owns_handle_ = false;
  session->staged_temporals_ = true;
  return session;
}

SqliteConnection::~SqliteConnection() {
  if (db_ && owns_handle_) sqlite3_close_v2(db_);
}

void SqliteConnection::Fail(int rc) {
  std::string message = sqlite3_errmsg(db_);
  if (IsConnectionFamily(rc)) throw driver_errors::Unreachable(config_, message);
  // SQLITE_AUTH is the one permission refusal SQLite has.
  std::string_view state = (rc & 0xff) == SQLITE_AUTH ? "42501" : "";
  DomainError error = driver_errors::StatementFailed(config_, state, 0, message);
  throw error;
}

sqlite3_stmt* SqliteConnection::Prepare(std::string_view sql, const char** tail) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, tail);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    Fail(rc);
  }
  return stmt;
}

void SqliteConnection::BindAll(sqlite3_stmt* stmt, const std::vector<std::string>& names,
                               const BindMap& binds) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    const BindValue& bind = bind_support::Require(names[i], binds);
    auto text = bind.DriverText(names[i]);
    int index = static_cast<int>(i + 1);
    if (!text) {
      sqlite3_bind_null(stmt, index);
      continue;
    }
    switch (bind.type) {
      case CanonicalType::kInteger:
      case CanonicalType::kBigInteger:
        sqlite3_bind_int64(stmt, index, std::stoll(*text));
        break;
      case CanonicalType::kBoolean:
        sqlite3_bind_int(stmt, index, *text == "true" ? 1 : 0);
        break;
      case CanonicalType::kDecimal:
        sqlite3_bind_double(stmt, index, std::stod(*text));
        break;
      case CanonicalType::kBinary:
        sqlite3_bind_blob64(stmt, index, text->data(), text->size(), SQLITE_TRANSIENT);
        break;
      case CanonicalType::kTime:
      case CanonicalType::kTimestamp: {
        std::string stored = SqliteTemporalText(bind, names[i], staged_temporals_);
        sqlite3_bind_text64(stmt, index, stored.data(), stored.size(), SQLITE_TRANSIENT,
                            SQLITE_UTF8);
        break;
      }
      default:
        sqlite3_bind_text64(stmt, index, text->data(), text->size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    }
  }
}

std::vector<ColumnSchema> SqliteConnection::Columns(sqlite3_stmt* stmt, bool has_row) {
  const TypeMapper& mapper = TypeMapperFor(Dialect::kSqlite);
  std::vector<ColumnSchema> columns;
  int count = sqlite3_column_count(stmt);
  for (int i = 0; i < count; ++i) {
    ColumnSchema column;
    column.name = sqlite3_column_name(stmt, i);
    const char* declared = sqlite3_column_decltype(stmt, i);
    column.source_type = SqliteTypeMapper::ShownDeclaredType(declared ? declared : "");
    if (declared) {
      column.mapping = mapper.Map(ColumnDeclaredType(declared), column.name);
    } else if (has_row) {
      // An expression column has no declared type: the first value's storage class decides.
      column.mapping = MapByStorageClass(sqlite3_column_type(stmt, i));
    } else {
      column.mapping = Simple(CanonicalType::kString);
    }
    columns.push_back(std::move(column));
  }
  return columns;
}

QueryResult SqliteConnection::Query(std::string_view sql, const BindMap& binds,
                                    const QueryOptions& options, const RowCallback& on_row,
                                    const ColumnsCallback& on_columns) {
  NamedParameters parsed = NamedParameters::Parse(sql, Dialect::kSqlite);
  std::vector<std::string> distinct = parsed.DistinctNames();
  std::string rendered = parsed.pieces[0];
  for (std::size_t i = 0; i < parsed.names.size(); ++i) {
    auto pos = std::find(distinct.begin(), distinct.end(), parsed.names[i]) - distinct.begin();
    rendered += "?" + std::to_string(pos + 1) + parsed.pieces[i + 1];
  }
  StatementGuard guard(options.cancel, EffectiveTimeoutMs(options),
                       [db = db_] { sqlite3_interrupt(db); });
  // sqlite3_interrupt is a no-op while no statement runs, so a cancel that lands between
  // arming and the first step would be lost: the progress handler sees it either way.
  ProgressCheck check(db_, guard);
  QueryResult result;
  const char* cursor = rendered.c_str();
  bool reported = false;
  std::vector<std::optional<std::string_view>> cells;
  while (!IsBlank(cursor)) {
    const char* tail = nullptr;
    guard.ThrowIfInterrupted();
    StmtPtr stmt(Prepare(std::string_view(cursor), &tail));
    cursor = tail;
    if (!stmt) continue;  // a comment-only remainder
    BindAll(stmt.get(), distinct, binds);
    bool first = true;
    while (true) {
      int rc = sqlite3_step(stmt.get());
      if (rc == SQLITE_DONE) {
        if (!reported && sqlite3_column_count(stmt.get()) > 0) {
          result.columns = Columns(stmt.get(), false);
          if (on_columns) on_columns(result.columns);
          reported = true;
        }
        result.affected_rows = sqlite3_changes(db_);
        break;
      }
      if (rc != SQLITE_ROW) {
        if ((rc & 0xff) == SQLITE_INTERRUPT) {
          guard.ThrowIfInterrupted();
          throw driver_errors::Cancelled();
        }
        Fail(rc);
      }
      if (first && !reported) {
        result.columns = Columns(stmt.get(), true);
        if (on_columns) on_columns(result.columns);
        reported = true;
      }
      first = false;
      if (options.max_rows >= 0 && result.row_count >= options.max_rows) {
        result.truncated = true;
        return result;
      }
      int count = sqlite3_column_count(stmt.get());
      cells.assign(count, std::nullopt);
      for (int i = 0; i < count; ++i) {
        int storage = sqlite3_column_type(stmt.get(), i);
        if (storage == SQLITE_NULL) continue;
        if (storage == SQLITE_BLOB) {
          const void* data = sqlite3_column_blob(stmt.get(), i);
          int size = sqlite3_column_bytes(stmt.get(), i);
          cells[i] = std::string_view(static_cast<const char*>(data), size);
        } else {
          const unsigned char* text = sqlite3_column_text(stmt.get(), i);
          int size = sqlite3_column_bytes(stmt.get(), i);
          cells[i] = std::string_view(reinterpret_cast<const char*>(text), size);
        }
      }
      ++result.row_count;
      if (!on_row(RowView(result.columns, cells))) {
        result.truncated = true;
        return result;
      }
    }
  }
  return result;
}

void SqliteConnection::Cancel() { sqlite3_interrupt(db_); }

bool SqliteConnection::Ping(int) {
  return db_ && sqlite3_exec(db_, "SELECT 1", nullptr, nullptr, nullptr) == SQLITE_OK;
}

std::string SqliteConnection::ServerVersion() {
  return std::string("SQLite ") + sqlite3_libversion();
}

std::vector<std::vector<std::optional<std::string>>> SqliteConnection::Rows(
    std::string_view sql, const std::vector<std::string>& args) {
  StmtPtr stmt(Prepare(sql, nullptr));
  for (std::size_t i = 0; i < args.size(); ++i) {
    sqlite3_bind_text(stmt.get(), int(i + 1), args[i].c_str(), -1, SQLITE_TRANSIENT);
  }
  std::vector<std::vector<std::optional<std::string>>> rows;
  int rc;
  while ((rc = sqlite3_step(stmt.get())) == SQLITE_ROW) {
    auto& row = rows.emplace_back();
    for (int i = 0; i < sqlite3_column_count(stmt.get()); ++i) {
      const unsigned char* text = sqlite3_column_text(stmt.get(), i);
      if (text) {
        row.emplace_back(reinterpret_cast<const char*>(text));
      } else {
        row.emplace_back(std::nullopt);
      }
    }
  }
  if (rc != SQLITE_DONE) Fail(rc);
  return rows;
}

bool SqliteConnection::SchemaMatches(const std::optional<std::string>& schema) const {
  // Schemaless: no filter, the empty schema and "main" all mean the one database.
  return !schema || schema->empty() || *schema == "main";
}

NamespaceListing SqliteConnection::ListNamespaces(const IntrospectionOptions&) { return {}; }

TableListing SqliteConnection::ListTables(const std::optional<std::string>& schema,
                                          const IntrospectionOptions& options) {
  TableListing listing;
  if (!SchemaMatches(schema)) return listing;
  auto rows = Rows(
      "SELECT name, upper(type) FROM sqlite_master WHERE type IN ('table','view') "
      "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
      {});
  for (auto& row : rows) {
    if (listing.tables.size() >= options.cap) {
      listing.truncated = true;
      break;
    }
    listing.tables.push_back(TableInfo{"", row[0].value_or(""), row[1].value_or(""), std::nullopt});
  }
  return listing;
}

std::vector<ColumnSchema> SqliteConnection::ListColumns(const std::optional<std::string>& schema,
                                                        const std::string& table,
                                                        const IntrospectionOptions&) {
  std::vector<ColumnSchema> columns;
  if (!SchemaMatches(schema)) return columns;
  const TypeMapper& mapper = TypeMapperFor(Dialect::kSqlite);
  auto rows =
      Rows("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1) ORDER BY cid", {table});
  for (auto& row : rows) {
    ColumnSchema column;
    column.name = row[0].value_or("");
    std::string declared = row[1].value_or("");
    column.mapping = mapper.Map(ColumnDeclaredType(declared), column.name);
    column.source_type = SqliteTypeMapper::ShownDeclaredType(declared);
    column.nullable = row[2].value_or("0") == "0";
    columns.push_back(std::move(column));
  }
  return columns;
}

TableStats SqliteConnection::GetTableStats(const std::optional<std::string>& schema,
                                           const std::string& table) {
  TableStats stats;
  if (!SchemaMatches(schema)) return stats;
  // The catalog holds no per-column stats (datasources.md §7C): every column is listed with
  // its stat fields absent; sqlite_stat1 (post-ANALYZE) adds the row estimate and, for a
  // column that leads an index, the distinct count the index's average implies.
  for (auto& row : Rows("SELECT name FROM pragma_table_info(?1) ORDER BY cid", {table})) {
    ColumnStats column;
    column.name = row[0].value_or("");
    stats.columns.push_back(std::move(column));
  }
  std::vector<std::vector<std::optional<std::string>>> stat1;
  if (!Rows("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'", {}).empty()) {
    stat1 = Rows("SELECT idx, stat FROM sqlite_stat1 WHERE tbl = ?1", {table});
  }
  for (auto& row : stat1) {
    if (!row[1]) continue;
    long long rows = std::strtoll(row[1]->c_str(), nullptr, 10);
    if (!stats.row_estimate || rows > *stats.row_estimate) stats.row_estimate = rows;
    stats.stats_source = "sqlite_stat1";
  }
  for (auto& index : Rows("SELECT name, \"unique\", origin FROM pragma_index_list(?1)", {table})) {
    IndexInfo info{index[0].value_or(""),
                   {},
                   index[1].value_or("0") == "1",
                   index[2].value_or("") == "pk",
                   "btree"};
    for (auto& col : Rows("SELECT name FROM pragma_index_info(?1) ORDER BY seqno", {info.name})) {
      info.columns.push_back(col[0].value_or(""));
    }
    for (auto& row : stat1) {
      if (!row[0] || !row[1] || *row[0] != info.name || info.columns.empty()) continue;
      // "nrow avg1 avg2 …": avg1 rows share each value of the leading column.
      char* end = nullptr;
      double nrow = std::strtod(row[1]->c_str(), &end);
      double per_value = std::strtod(end, nullptr);
      if (nrow <= 0 || per_value <= 0) continue;
      for (auto& column : stats.columns) {
        if (column.name == info.columns[0] && !column.n_distinct) {
          column.n_distinct = std::max(1.0, std::round(nrow / per_value));
        }
      }
    }
    stats.indexes.push_back(std::move(info));
  }
  return stats;
}

}  // namespace dp
