#include "tempdb_session.hpp"

#include <algorithm>
#include <cctype>
#include <memory>

#include "connectors/bind_support.hpp"
#include "connectors/driver_errors.hpp"
#include "connectors/statement_guard.hpp"
#include "datapipelines/connectors/named_parameters.hpp"
#include "datapipelines/connectors/type_mapper.hpp"

namespace dp {
namespace {

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

SourceType Declared(const std::string& declared) {
  SourceType source;
  source.name = declared;
  source.display = declared;
  return source;
}

// An expression column has no declared type: the first value's storage class decides,
// as the SQLite connector does.
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

std::vector<ColumnSchema> Columns(sqlite3_stmt* stmt, bool has_row) {
  const TypeMapper& mapper = TypeMapperFor(Dialect::kSqlite);
  std::vector<ColumnSchema> columns;
  int count = sqlite3_column_count(stmt);
  for (int i = 0; i < count; ++i) {
    ColumnSchema column;
    column.name = sqlite3_column_name(stmt, i);
    const char* declared = sqlite3_column_decltype(stmt, i);
    column.source_type = declared ? declared : "";
    if (declared) {
      column.mapping = mapper.Map(Declared(declared), column.name);
    } else {
      column.mapping = has_row ? MapByStorageClass(sqlite3_column_type(stmt, i))
                               : Simple(CanonicalType::kString);
    }
    columns.push_back(std::move(column));
  }
  return columns;
}

// "?N" placeholders for the distinct `:name`s, in first-appearance order.
std::string Rendered(const NamedParameters& parsed, const std::vector<std::string>& distinct) {
  std::string rendered = parsed.pieces[0];
  for (std::size_t i = 0; i < parsed.names.size(); ++i) {
    auto pos = std::find(distinct.begin(), distinct.end(), parsed.names[i]) - distinct.begin();
    rendered += "?" + std::to_string(pos + 1) + parsed.pieces[i + 1];
  }
  return rendered;
}

}  // namespace

TempdbSession::TempdbSession(sqlite3* db) : db_(db) {
  config_.dialect = Dialect::kSqlite;
  config_.sqlite_path = "tempdb";
}

void TempdbSession::Fail(int rc) {
  std::string_view state = (rc & 0xff) == SQLITE_AUTH ? "42501" : "";
  throw driver_errors::StatementFailed(config_, state, 0, sqlite3_errmsg(db_));
}

sqlite3_stmt* TempdbSession::Prepare(std::string_view sql, const char** tail) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, tail);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    Fail(rc);
  }
  return stmt;
}

void TempdbSession::BindAll(sqlite3_stmt* stmt, const std::vector<std::string>& names,
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
      default:
        // BIGDECIMAL, temporals and strings bind as text: the staged forms they compare with.
        sqlite3_bind_text64(stmt, index, text->data(), text->size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    }
  }
}

QueryResult TempdbSession::Query(std::string_view sql, const BindMap& binds,
                                 const QueryOptions& options, const RowCallback& on_row,
                                 const ColumnsCallback& on_columns) {
  NamedParameters parsed = NamedParameters::Parse(sql, Dialect::kSqlite);
  std::vector<std::string> distinct = parsed.DistinctNames();
  std::string rendered = Rendered(parsed, distinct);
  StatementGuard guard(options.cancel, EffectiveTimeoutMs(options),
                       [db = db_] { sqlite3_interrupt(db); });
  QueryResult result;
  bool reported = false;
  const char* cursor = rendered.c_str();
  while (!IsBlank(cursor)) {
    const char* tail = nullptr;
    StmtPtr stmt(Prepare(std::string_view(cursor), &tail));
    cursor = tail;
    if (!stmt) continue;  // a comment-only remainder
    BindAll(stmt.get(), distinct, binds);
    if (!Run(stmt.get(), guard, options, on_row, on_columns, result, reported)) return result;
  }
  return result;
}

bool TempdbSession::Run(sqlite3_stmt* stmt, const StatementGuard& guard,
                        const QueryOptions& options, const RowCallback& on_row,
                        const ColumnsCallback& on_columns, QueryResult& result, bool& reported) {
  // Per statement, not per session: a row callback may run a nested query (tempdb → tempdb).
  std::vector<std::optional<std::string_view>> cells;
  bool first = true;
  while (true) {
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) {
      if (!reported && sqlite3_column_count(stmt) > 0) {
        result.columns = Columns(stmt, false);
        if (on_columns) on_columns(result.columns);
        reported = true;
      }
      result.affected_rows = sqlite3_changes(db_);
      return true;
    }
    if (rc != SQLITE_ROW) {
      if ((rc & 0xff) == SQLITE_INTERRUPT) {
        guard.ThrowIfInterrupted();  // the timeout or the token, when either fired
        throw driver_errors::Cancelled();
      }
      Fail(rc);
    }
    if (first && !reported) {
      result.columns = Columns(stmt, true);
      if (on_columns) on_columns(result.columns);
      reported = true;
    }
    first = false;
    if (options.max_rows >= 0 && result.row_count >= options.max_rows) {
      result.truncated = true;
      return false;
    }
    int count = sqlite3_column_count(stmt);
    cells.assign(count, std::nullopt);
    for (int i = 0; i < count; ++i) {
      int storage = sqlite3_column_type(stmt, i);
      if (storage == SQLITE_NULL) continue;
      // Text first, then bytes: sqlite3_column_bytes after the conversion is the length.
      const void* data = storage == SQLITE_BLOB
                             ? sqlite3_column_blob(stmt, i)
                             : static_cast<const void*>(sqlite3_column_text(stmt, i));
      int size = sqlite3_column_bytes(stmt, i);
      cells[i] = std::string_view(static_cast<const char*>(data), size);
    }
    ++result.row_count;
    if (!on_row(RowView(result.columns, cells))) {
      result.truncated = true;
      return false;
    }
  }
}

TableListing TempdbSession::ListTables(const std::optional<std::string>& schema,
                                       const IntrospectionOptions& options) {
  TableListing listing;
  if (schema && !schema->empty() && *schema != "main") return listing;
  Query(
      "SELECT name, upper(type) AS type FROM sqlite_master WHERE type IN ('table', 'view') "
      "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
      {}, QueryOptions{}, [&](const RowView& row) {
        if (listing.tables.size() >= options.cap) return listing.truncated = true, false;
        listing.tables.push_back(TableInfo{"", std::string(row.text(0).value_or("")),
                                           std::string(row.text(1).value_or("")), std::nullopt});
        return true;
      });
  return listing;
}

std::vector<ColumnSchema> TempdbSession::ListColumns(const std::optional<std::string>& schema,
                                                     const std::string& table,
                                                     const IntrospectionOptions&) {
  std::vector<ColumnSchema> columns;
  if (schema && !schema->empty() && *schema != "main") return columns;
  const TypeMapper& mapper = TypeMapperFor(Dialect::kSqlite);
  BindMap binds{{"t", BindValue{CanonicalType::kString, table}}};
  Query("SELECT name, type, \"notnull\" FROM pragma_table_info(:t) ORDER BY cid", binds,
        QueryOptions{}, [&](const RowView& row) {
          ColumnSchema column;
          column.name = std::string(row.text(0).value_or(""));
          column.source_type = std::string(row.text(1).value_or(""));
          column.mapping = mapper.Map(Declared(column.source_type), column.name);
          column.nullable = row.text(2).value_or("0") == "0";
          columns.push_back(std::move(column));
          return true;
        });
  return columns;
}

}  // namespace dp
