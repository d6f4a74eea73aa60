#include "duckdb_connection.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <set>

#include "connectors/bind_support.hpp"
#include "connectors/driver_errors.hpp"
#include "connectors/pool/statement_guard.hpp"
#include "datapipelines/connectors/connector_factory.hpp"
#include "datapipelines/connectors/named_parameters.hpp"
#include "datapipelines/connectors/type_mapper.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

struct ResultHolder {
  duckdb_result result;
  bool live = false;
  ~ResultHolder() {
    if (live) duckdb_destroy_result(&result);
  }
};

struct PreparedHolder {
  duckdb_prepared_statement stmt = nullptr;
  ~PreparedHolder() {
    if (stmt) duckdb_destroy_prepare(&stmt);
  }
};

struct ExtractedHolder {
  duckdb_extracted_statements extracted = nullptr;
  ~ExtractedHolder() {
    if (extracted) duckdb_destroy_extracted(&extracted);
  }
};

struct ChunkHolder {
  duckdb_data_chunk chunk = nullptr;
  ~ChunkHolder() {
    if (chunk) duckdb_destroy_data_chunk(&chunk);
  }
};

struct LogicalType {
  duckdb_logical_type type = nullptr;
  explicit LogicalType(duckdb_logical_type t) : type(t) {}
  ~LogicalType() {
    if (type) duckdb_destroy_logical_type(&type);
  }
  LogicalType(const LogicalType&) = delete;
  LogicalType& operator=(const LogicalType&) = delete;
};

// The statement kinds author SQL may run. Everything else — COPY, ATTACH/DETACH, LOAD and
// INSTALL, EXPORT/IMPORT, SET/RESET/USE, PRAGMA statements, CALL, VACUUM, PREPARE/EXECUTE,
// extension statements — is an engine primitive and is refused before it runs.
bool Admitted(duckdb_statement_type type, bool read_only) {
  switch (type) {
    case DUCKDB_STATEMENT_TYPE_SELECT:
    case DUCKDB_STATEMENT_TYPE_EXPLAIN:
      return true;
    case DUCKDB_STATEMENT_TYPE_INSERT:
    case DUCKDB_STATEMENT_TYPE_UPDATE:
    case DUCKDB_STATEMENT_TYPE_DELETE:
    case DUCKDB_STATEMENT_TYPE_CREATE:
    case DUCKDB_STATEMENT_TYPE_ALTER:
    case DUCKDB_STATEMENT_TYPE_DROP:
    case DUCKDB_STATEMENT_TYPE_TRANSACTION:
      return !read_only;
    default:
      return false;
  }
}

const char* StatementName(duckdb_statement_type type) {
  switch (type) {
    case DUCKDB_STATEMENT_TYPE_COPY:
      return "COPY";
    case DUCKDB_STATEMENT_TYPE_ATTACH:
      return "ATTACH";
    case DUCKDB_STATEMENT_TYPE_DETACH:
      return "DETACH";
    case DUCKDB_STATEMENT_TYPE_LOAD:
      return "INSTALL/LOAD";
    case DUCKDB_STATEMENT_TYPE_EXPORT:
      return "EXPORT";
    case DUCKDB_STATEMENT_TYPE_SET:
    case DUCKDB_STATEMENT_TYPE_VARIABLE_SET:
      return "SET/RESET/USE";
    case DUCKDB_STATEMENT_TYPE_PRAGMA:
      return "PRAGMA";
    case DUCKDB_STATEMENT_TYPE_CALL:
      return "CALL/CHECKPOINT";
    default:
      return "this statement";
  }
}

// The name DuckDB's catalog prints for a type, for source_type and the mapper.
std::string TypeName(duckdb_logical_type type) {
  switch (duckdb_get_type_id(type)) {
    case DUCKDB_TYPE_BOOLEAN:
      return "BOOLEAN";
    case DUCKDB_TYPE_TINYINT:
      return "TINYINT";
    case DUCKDB_TYPE_SMALLINT:
      return "SMALLINT";
    case DUCKDB_TYPE_INTEGER:
      return "INTEGER";
    case DUCKDB_TYPE_BIGINT:
      return "BIGINT";
    case DUCKDB_TYPE_UTINYINT:
      return "UTINYINT";
    case DUCKDB_TYPE_USMALLINT:
      return "USMALLINT";
    case DUCKDB_TYPE_UINTEGER:
      return "UINTEGER";
    case DUCKDB_TYPE_UBIGINT:
      return "UBIGINT";
    case DUCKDB_TYPE_FLOAT:
      return "FLOAT";
    case DUCKDB_TYPE_DOUBLE:
      return "DOUBLE";
    case DUCKDB_TYPE_TIMESTAMP:
      return "TIMESTAMP";
    case DUCKDB_TYPE_TIMESTAMP_S:
      return "TIMESTAMP_S";
    case DUCKDB_TYPE_TIMESTAMP_MS:
      return "TIMESTAMP_MS";
    case DUCKDB_TYPE_TIMESTAMP_NS:
      return "TIMESTAMP_NS";
    case DUCKDB_TYPE_TIMESTAMP_TZ:
      return "TIMESTAMP WITH TIME ZONE";
    case DUCKDB_TYPE_DATE:
      return "DATE";
    case DUCKDB_TYPE_TIME:
      return "TIME";
    case DUCKDB_TYPE_TIME_TZ:
      return "TIME WITH TIME ZONE";
    case DUCKDB_TYPE_INTERVAL:
      return "INTERVAL";
    case DUCKDB_TYPE_HUGEINT:
      return "HUGEINT";
    case DUCKDB_TYPE_UHUGEINT:
      return "UHUGEINT";
    case DUCKDB_TYPE_VARCHAR:
      return "VARCHAR";
    case DUCKDB_TYPE_BLOB:
      return "BLOB";
    case DUCKDB_TYPE_DECIMAL:
      return "DECIMAL(" + std::to_string(duckdb_decimal_width(type)) + "," +
             std::to_string(duckdb_decimal_scale(type)) + ")";
    case DUCKDB_TYPE_ENUM:
      return "ENUM";
    case DUCKDB_TYPE_LIST:
      return "LIST";
    case DUCKDB_TYPE_STRUCT:
      return "STRUCT";
    case DUCKDB_TYPE_MAP:
      return "MAP";
    case DUCKDB_TYPE_ARRAY:
      return "ARRAY";
    case DUCKDB_TYPE_UNION:
      return "UNION";
    case DUCKDB_TYPE_UUID:
      return "UUID";
    case DUCKDB_TYPE_BIT:
      return "BIT";
    case DUCKDB_TYPE_SQLNULL:
      return "\"NULL\"";
    default:
      return "UNKNOWN";
  }
}

// Types decoded straight from the vector; anything else is read through CAST(… AS VARCHAR).
bool DecodedNatively(duckdb_type id) {
  switch (id) {
    case DUCKDB_TYPE_BOOLEAN:
    case DUCKDB_TYPE_TINYINT:
    case DUCKDB_TYPE_SMALLINT:
    case DUCKDB_TYPE_INTEGER:
    case DUCKDB_TYPE_BIGINT:
    case DUCKDB_TYPE_UTINYINT:
    case DUCKDB_TYPE_USMALLINT:
    case DUCKDB_TYPE_UINTEGER:
    case DUCKDB_TYPE_UBIGINT:
    case DUCKDB_TYPE_FLOAT:
    case DUCKDB_TYPE_DOUBLE:
    case DUCKDB_TYPE_TIMESTAMP:
    case DUCKDB_TYPE_TIMESTAMP_S:
    case DUCKDB_TYPE_TIMESTAMP_MS:
    case DUCKDB_TYPE_TIMESTAMP_NS:
    case DUCKDB_TYPE_TIMESTAMP_TZ:
    case DUCKDB_TYPE_DATE:
    case DUCKDB_TYPE_TIME:
    case DUCKDB_TYPE_HUGEINT:
    case DUCKDB_TYPE_UHUGEINT:
    case DUCKDB_TYPE_VARCHAR:
    case DUCKDB_TYPE_BLOB:
    case DUCKDB_TYPE_DECIMAL:
    case DUCKDB_TYPE_SQLNULL:
      return true;
    default:
      return false;
  }
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

void AppendPadded(std::string& out, int64_t value, int width) {
  char buffer[24];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value < 0 ? -value : value);
  if (value < 0) out.push_back('-');
  for (int pad = width - static_cast<int>(end - buffer); pad > 0; --pad) out.push_back('0');
  out.append(buffer, end);
}

// Days since 1970-01-01 → YYYY-MM-DD (Howard Hinnant's civil_from_days).
void AppendDaysAsDate(std::string& out, int64_t days) {
  days += 719468;
  int64_t era = FloorDiv(days, 146097);
  int64_t doe = days - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t year = yoe + era * 400;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  int64_t day = doy - (153 * mp + 2) / 5 + 1;
  int64_t month = mp < 10 ? mp + 3 : mp - 9;
  if (month <= 2) ++year;
  AppendPadded(out, year, 4);
  out.push_back('-');
  AppendPadded(out, month, 2);
  out.push_back('-');
  AppendPadded(out, day, 2);
}

// Microseconds within a day → HH:MM:SS[.ffffff].
void AppendTime(std::string& out, int64_t micros) {
  AppendPadded(out, micros / 3600000000LL, 2);
  out.push_back(':');
  AppendPadded(out, micros / 60000000LL % 60, 2);
  out.push_back(':');
  AppendPadded(out, micros / 1000000LL % 60, 2);
  int64_t fraction = micros % 1000000LL;
  if (fraction) {
    out.push_back('.');
    AppendPadded(out, fraction, 6);
    while (out.back() == '0') out.pop_back();
  }
}

void AppendTimestamp(std::string& out, int64_t micros) {
  int64_t days = FloorDiv(micros, 86400000000LL);
  AppendDaysAsDate(out, days);
  out.push_back(' ');
  AppendTime(out, micros - days * 86400000000LL);
}

void AppendUnsigned128(std::string& out, unsigned __int128 value) {
  char buffer[48];
  int pos = sizeof buffer;
  do {
    buffer[--pos] = static_cast<char>('0' + static_cast<int>(value % 10));
    value /= 10;
  } while (value);
  out.append(buffer + pos, sizeof buffer - pos);
}

void AppendSigned128(std::string& out, __int128 value) {
  if (value < 0) {
    out.push_back('-');
    AppendUnsigned128(out, static_cast<unsigned __int128>(-(value + 1)) + 1);
  } else {
    AppendUnsigned128(out, static_cast<unsigned __int128>(value));
  }
}

// An unscaled integer with `scale` digits after the point.
void AppendScaled(std::string& out, __int128 unscaled, int scale) {
  std::string digits;
  bool negative = unscaled < 0;
  AppendUnsigned128(digits, negative ? static_cast<unsigned __int128>(-(unscaled + 1)) + 1
                                     : static_cast<unsigned __int128>(unscaled));
  if (negative) out.push_back('-');
  if (scale <= 0) {
    out += digits;
    return;
  }
  if (static_cast<int>(digits.size()) <= scale) {
    digits.insert(0, static_cast<std::size_t>(scale - digits.size() + 1), '0');
  }
  out.append(digits, 0, digits.size() - scale);
  out.push_back('.');
  out.append(digits, digits.size() - scale, std::string::npos);
}

template <typename T>
void AppendNumber(std::string& out, T value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, end);
}

// One result column's decoder state.
struct ColumnReader {
  duckdb_type id = DUCKDB_TYPE_INVALID;
  duckdb_type decimal_storage = DUCKDB_TYPE_INVALID;
  int scale = 0;
  std::string scratch;
};

// Writes the cell's text into reader.scratch (or points `cell` into the vector for strings).
void Decode(ColumnReader& reader, const void* data, idx_t row,
            std::optional<std::string_view>& cell) {
  std::string& out = reader.scratch;
  out.clear();
  switch (reader.id) {
    case DUCKDB_TYPE_BOOLEAN:
      out = static_cast<const bool*>(data)[row] ? "true" : "false";
      break;
    case DUCKDB_TYPE_TINYINT:
      AppendNumber(out, static_cast<const int8_t*>(data)[row]);
      break;
    case DUCKDB_TYPE_SMALLINT:
      AppendNumber(out, static_cast<const int16_t*>(data)[row]);
      break;
    case DUCKDB_TYPE_INTEGER:
      AppendNumber(out, static_cast<const int32_t*>(data)[row]);
      break;
    case DUCKDB_TYPE_BIGINT:
      AppendNumber(out, static_cast<const int64_t*>(data)[row]);
      break;
    case DUCKDB_TYPE_UTINYINT:
      AppendNumber(out, static_cast<const uint8_t*>(data)[row]);
      break;
    case DUCKDB_TYPE_USMALLINT:
      AppendNumber(out, static_cast<const uint16_t*>(data)[row]);
      break;
    case DUCKDB_TYPE_UINTEGER:
      AppendNumber(out, static_cast<const uint32_t*>(data)[row]);
      break;
    case DUCKDB_TYPE_UBIGINT:
      AppendNumber(out, static_cast<const uint64_t*>(data)[row]);
      break;
    case DUCKDB_TYPE_FLOAT:
      AppendNumber(out, static_cast<const float*>(data)[row]);
      break;
    case DUCKDB_TYPE_DOUBLE:
      AppendNumber(out, static_cast<const double*>(data)[row]);
      break;
    case DUCKDB_TYPE_DATE:
      AppendDaysAsDate(out, static_cast<const int32_t*>(data)[row]);
      break;
    case DUCKDB_TYPE_TIME:
      AppendTime(out, static_cast<const int64_t*>(data)[row]);
      break;
    case DUCKDB_TYPE_TIMESTAMP:
    case DUCKDB_TYPE_TIMESTAMP_TZ:
      AppendTimestamp(out, static_cast<const int64_t*>(data)[row]);
      break;
    case DUCKDB_TYPE_TIMESTAMP_S:
      AppendTimestamp(out, static_cast<const int64_t*>(data)[row] * 1000000LL);
      break;
    case DUCKDB_TYPE_TIMESTAMP_MS:
      AppendTimestamp(out, static_cast<const int64_t*>(data)[row] * 1000LL);
      break;
    case DUCKDB_TYPE_TIMESTAMP_NS:
      AppendTimestamp(out, FloorDiv(static_cast<const int64_t*>(data)[row], 1000));
      break;
    case DUCKDB_TYPE_HUGEINT: {
      const auto& value = static_cast<const duckdb_hugeint*>(data)[row];
      AppendSigned128(out, (static_cast<__int128>(value.upper) << 64) | value.lower);
      break;
    }
    case DUCKDB_TYPE_UHUGEINT: {
      const auto& value = static_cast<const duckdb_uhugeint*>(data)[row];
      AppendUnsigned128(out, (static_cast<unsigned __int128>(value.upper) << 64) | value.lower);
      break;
    }
    case DUCKDB_TYPE_DECIMAL: {
      __int128 unscaled = 0;
      switch (reader.decimal_storage) {
        case DUCKDB_TYPE_SMALLINT:
          unscaled = static_cast<const int16_t*>(data)[row];
          break;
        case DUCKDB_TYPE_INTEGER:
          unscaled = static_cast<const int32_t*>(data)[row];
          break;
        case DUCKDB_TYPE_BIGINT:
          unscaled = static_cast<const int64_t*>(data)[row];
          break;
        default: {
          const auto& value = static_cast<const duckdb_hugeint*>(data)[row];
          unscaled = (static_cast<__int128>(value.upper) << 64) | value.lower;
        }
      }
      AppendScaled(out, unscaled, reader.scale);
      break;
    }
    case DUCKDB_TYPE_VARCHAR:
    case DUCKDB_TYPE_BLOB: {
      const auto& value = static_cast<const duckdb_string_t*>(data)[row];
      uint32_t length = value.value.inlined.length;
      const char* bytes = length <= 12 ? value.value.inlined.inlined : value.value.pointer.ptr;
      cell = std::string_view(bytes, length);
      return;
    }
    default:
      cell.reset();
      return;
  }
  cell = std::string_view(out);
}

std::string StripTrailing(std::string_view sql) {
  std::string out(sql);
  while (!out.empty() &&
         (std::isspace(static_cast<unsigned char>(out.back())) || out.back() == ';')) {
    out.pop_back();
  }
  return out;
}

// The DuckDB tempdb (DuckdbStaging) stages canonical INTEGER as BIGINT and BIGINTEGER as
// HUGEINT: read back, each is the canonical type the staged column had.
TypeMapping StagedMapping(duckdb_logical_type type, const TypeMapping& mapped) {
  duckdb_type id = duckdb_get_type_id(type);
  if (id == DUCKDB_TYPE_BIGINT) return Simple(CanonicalType::kInteger);
  if (id == DUCKDB_TYPE_HUGEINT) return Simple(CanonicalType::kBigInteger);
  return mapped;
}

}  // namespace

DuckdbConnection::DuckdbConnection(const ConnectorConfig& config,
                                   std::shared_ptr<DuckdbEngine> engine)
    : config_(config), engine_(std::move(engine)) {
  connection_ = engine_->Connect(config_);
}

DuckdbConnection::~DuckdbConnection() {
  if (connection_) duckdb_disconnect(&connection_);
}

QueryResult DuckdbConnection::Query(std::string_view sql, const BindMap& binds,
                                    const QueryOptions& options, const RowCallback& on_row,
                                    const ColumnsCallback& on_columns) {
  NamedParameters parsed = NamedParameters::Parse(sql, config_.dialect);
  std::vector<std::string> distinct = parsed.DistinctNames();
  std::string rendered = parsed.pieces[0];
  for (std::size_t i = 0; i < parsed.names.size(); ++i) {
    auto pos = std::find(distinct.begin(), distinct.end(), parsed.names[i]) - distinct.begin();
    rendered += "$" + std::to_string(pos + 1) + parsed.pieces[i + 1];
  }
  bool read_only = config_.readonly || config_.probe || config_.dialect == Dialect::kLake;
  auto fail = [&](std::string_view message) -> DomainError {
    return driver_errors::StatementFailed(config_, "", 0, message);
  };
  StatementGuard guard(options.cancel, EffectiveTimeoutMs(options),
                       [connection = connection_] { duckdb_interrupt(connection); });
  ExtractedHolder extracted;
  idx_t count = duckdb_extract_statements(connection_, rendered.c_str(), &extracted.extracted);
  if (count == 0) {
    const char* error = duckdb_extract_statements_error(extracted.extracted);
    throw fail(error ? error : "the SQL holds no statement");
  }
  QueryResult result;
  bool reported = false;
  std::vector<std::optional<std::string_view>> cells;
  for (idx_t s = 0; s < count; ++s) {
    guard.ThrowIfInterrupted();
    PreparedHolder prepared;
    if (duckdb_prepare_extracted_statement(connection_, extracted.extracted, s, &prepared.stmt) !=
        DuckDBSuccess) {
      const char* error = duckdb_prepare_error(prepared.stmt);
      throw fail(error ? error : "DuckDB could not prepare the statement");
    }
    duckdb_statement_type type = duckdb_prepared_statement_type(prepared.stmt);
    if (!Admitted(type, read_only)) {
      DomainError error = driver_errors::StatementFailed(
          config_, "42501", 0,
          std::string(StatementName(type)) +
              " is not allowed on this datasource: the embedded engine runs inside the server, "
              "so engine, file and extension statements are refused" +
              (read_only ? " (read-only: SELECT and EXPLAIN only)" : ""));
      throw error;
    }
    idx_t column_count = duckdb_prepared_statement_column_count(prepared.stmt);
    std::vector<ColumnSchema> columns;
    std::vector<ColumnReader> readers(column_count);
    bool needs_cast = false;
    const TypeMapper& mapper = TypeMapperFor(config_.dialect);
    bool returns_rows =
        type == DUCKDB_STATEMENT_TYPE_SELECT || type == DUCKDB_STATEMENT_TYPE_EXPLAIN;
    for (idx_t c = 0; c < column_count && returns_rows; ++c) {
      LogicalType logical(duckdb_prepared_statement_column_logical_type(prepared.stmt, c));
      ColumnSchema column;
      const char* name = duckdb_prepared_statement_column_name(prepared.stmt, c);
      column.name = name ? name : "";
      column.source_type = TypeName(logical.type);
      SourceType source;
      source.name = column.source_type;
      source.display = column.source_type;
      column.mapping = mapper.Map(source, column.name);
      readers[c].id = duckdb_get_type_id(logical.type);
      if (config_.duckdb_staging) column.mapping = StagedMapping(logical.type, column.mapping);
      if (readers[c].id == DUCKDB_TYPE_DECIMAL) {
        readers[c].decimal_storage = duckdb_decimal_internal_type(logical.type);
        readers[c].scale = duckdb_decimal_scale(logical.type);
      }
      needs_cast |= !DecodedNatively(readers[c].id);
      columns.push_back(std::move(column));
    }
    if (needs_cast && type == DUCKDB_STATEMENT_TYPE_SELECT && count == 1) {
      // Nested, enum, uuid, interval and time-with-zone values are read as DuckDB's own text
      // form: the statement is re-prepared inside a projection that casts exactly those.
      std::string projection;
      for (idx_t c = 0; c < column_count; ++c) {
        if (c) projection += ", ";
        std::string ref = "#" + std::to_string(c + 1);
        if (!DecodedNatively(readers[c].id)) {
          projection += "CAST(" + ref + " AS VARCHAR)";
          readers[c].id = DUCKDB_TYPE_VARCHAR;
        } else {
          projection += ref;
        }
      }
      PreparedHolder wrapped;
      std::string text =
          "SELECT " + projection + " FROM (" + StripTrailing(rendered) + "\n) AS dp_q";
      if (duckdb_prepare(connection_, text.c_str(), &wrapped.stmt) != DuckDBSuccess) {
        const char* error = duckdb_prepare_error(wrapped.stmt);
        throw fail(error ? error : "DuckDB could not prepare the statement");
      }
      std::swap(prepared.stmt, wrapped.stmt);
    }
    // Binds: $n of the rendered text (a later statement sees the same numbering).
    idx_t parameters = duckdb_nparams(prepared.stmt);
    for (idx_t p = 1; p <= parameters && p <= distinct.size(); ++p) {
      const std::string& bind_name = distinct[p - 1];
      const BindValue& bind = bind_support::Require(bind_name, binds);
      auto text = bind.DriverText(bind_name);
      duckdb_state state;
      if (!text) {
        state = duckdb_bind_null(prepared.stmt, p);
      } else {
        switch (bind.type) {
          case CanonicalType::kInteger:
          case CanonicalType::kBigInteger:
            state = duckdb_bind_int64(prepared.stmt, p, std::stoll(*text));
            break;
          case CanonicalType::kBoolean:
            state = duckdb_bind_boolean(prepared.stmt, p, *text == "true");
            break;
          case CanonicalType::kDecimal:
            state = duckdb_bind_double(prepared.stmt, p, std::stod(*text));
            break;
          case CanonicalType::kBinary:
            state = duckdb_bind_blob(prepared.stmt, p, text->data(), text->size());
            break;
          default:
            state = duckdb_bind_varchar_length(prepared.stmt, p, text->data(), text->size());
        }
      }
      if (state != DuckDBSuccess) throw fail("could not bind :" + bind_name);
    }
    ResultHolder holder;
    duckdb_state state = duckdb_execute_prepared_streaming(prepared.stmt, &holder.result);
    holder.live = true;
    if (state != DuckDBSuccess) {
      guard.ThrowIfInterrupted();
      const char* error = duckdb_result_error(&holder.result);
      std::string message = error ? error : "DuckDB statement failed";
      if (message.find("INTERRUPT") != std::string::npos ||
          message.find("Interrupted") != std::string::npos) {
        throw driver_errors::Cancelled();
      }
      std::string_view sqlstate = message.rfind("Permission Error", 0) == 0 ? "42501" : "";
      DomainError error_out = driver_errors::StatementFailed(config_, sqlstate, 0, message);
      throw error_out;
    }
    if (!returns_rows) {
      result.affected_rows = static_cast<int64_t>(duckdb_rows_changed(&holder.result));
      continue;
    }
    if (!reported) {
      result.columns = columns;
      if (on_columns) on_columns(result.columns);
      reported = true;
    }
    while (true) {
      ChunkHolder chunk;
      chunk.chunk = duckdb_fetch_chunk(holder.result);
      if (!chunk.chunk) {
        guard.ThrowIfInterrupted();
        const char* error = duckdb_result_error(&holder.result);
        if (error && *error) throw fail(error);
        break;
      }
      idx_t rows = duckdb_data_chunk_get_size(chunk.chunk);
      if (rows == 0) break;
      std::vector<const void*> data(column_count);
      std::vector<const uint64_t*> validity(column_count);
      for (idx_t c = 0; c < column_count; ++c) {
        duckdb_vector vector = duckdb_data_chunk_get_vector(chunk.chunk, c);
        data[c] = duckdb_vector_get_data(vector);
        validity[c] = duckdb_vector_get_validity(vector);
      }
      cells.assign(column_count, std::nullopt);
      for (idx_t r = 0; r < rows; ++r) {
        if (options.max_rows >= 0 && result.row_count >= options.max_rows) {
          result.truncated = true;
          return result;
        }
        for (idx_t c = 0; c < column_count; ++c) {
          bool valid = !validity[c] || (validity[c][r / 64] >> (r % 64)) & 1;
          if (!valid || readers[c].id == DUCKDB_TYPE_SQLNULL) {
            cells[c].reset();
          } else {
            Decode(readers[c], data[c], r, cells[c]);
          }
        }
        ++result.row_count;
        if (!on_row(RowView(result.columns, cells))) {
          result.truncated = true;
          return result;
        }
      }
    }
  }
  return result;
}

void DuckdbConnection::Cancel() {
  if (connection_) duckdb_interrupt(connection_);
}

bool DuckdbConnection::Ping(int) {
  if (!connection_) return false;
  duckdb_result result;
  bool ok = duckdb_query(connection_, "SELECT 1", &result) == DuckDBSuccess;
  duckdb_destroy_result(&result);
  return ok;
}

std::string DuckdbConnection::ServerVersion() {
  return std::string("DuckDB ") + duckdb_library_version();
}

std::vector<std::vector<std::optional<std::string>>> DuckdbConnection::Rows(
    const std::string& sql, const std::vector<std::string>& args) {
  PreparedHolder prepared;
  if (duckdb_prepare(connection_, sql.c_str(), &prepared.stmt) != DuckDBSuccess) {
    const char* error = duckdb_prepare_error(prepared.stmt);
    throw driver_errors::StatementFailed(config_, "", 0, error ? error : "catalog read failed");
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    duckdb_bind_varchar_length(prepared.stmt, i + 1, args[i].data(), args[i].size());
  }
  ResultHolder holder;
  duckdb_state state = duckdb_execute_prepared_streaming(prepared.stmt, &holder.result);
  holder.live = true;
  if (state != DuckDBSuccess) {
    const char* error = duckdb_result_error(&holder.result);
    throw driver_errors::StatementFailed(config_, "", 0, error ? error : "catalog read failed");
  }
  idx_t columns = duckdb_column_count(&holder.result);
  std::vector<std::vector<std::optional<std::string>>> rows;
  std::vector<ColumnReader> readers(columns);
  for (idx_t c = 0; c < columns; ++c) {
    LogicalType logical(duckdb_column_logical_type(&holder.result, c));
    readers[c].id = duckdb_get_type_id(logical.type);
    if (readers[c].id == DUCKDB_TYPE_DECIMAL) {
      readers[c].decimal_storage = duckdb_decimal_internal_type(logical.type);
      readers[c].scale = duckdb_decimal_scale(logical.type);
    }
  }
  while (true) {
    ChunkHolder chunk;
    chunk.chunk = duckdb_fetch_chunk(holder.result);
    if (!chunk.chunk) break;
    idx_t size = duckdb_data_chunk_get_size(chunk.chunk);
    if (size == 0) break;
    for (idx_t r = 0; r < size; ++r) {
      auto& row = rows.emplace_back();
      for (idx_t c = 0; c < columns; ++c) {
        duckdb_vector vector = duckdb_data_chunk_get_vector(chunk.chunk, c);
        const uint64_t* validity = duckdb_vector_get_validity(vector);
        if (validity && !((validity[r / 64] >> (r % 64)) & 1)) {
          row.emplace_back(std::nullopt);
          continue;
        }
        std::optional<std::string_view> cell;
        Decode(readers[c], duckdb_vector_get_data(vector), r, cell);
        row.emplace_back(cell ? std::optional<std::string>(std::string(*cell)) : std::nullopt);
      }
    }
  }
  return rows;
}

std::optional<std::string> DuckdbConnection::CurrentSchema() {
  if (config_.dialect == Dialect::kLake) {
    // An unfiltered lake read resolves only when exactly one namespace is registered.
    std::set<std::string> namespaces;
    for (const auto& table : config_.lake_tables) {
      if (table.ns.size() == 1) namespaces.insert(table.ns[0]);
    }
    if (namespaces.size() == 1) return *namespaces.begin();
    return std::nullopt;
  }
  auto rows = Rows("SELECT current_schema()", {});
  if (rows.empty() || !rows[0][0]) return std::nullopt;
  return rows[0][0];
}

NamespaceListing DuckdbConnection::ListNamespaces(const IntrospectionOptions& options) {
  NamespaceListing listing;
  auto rows = Rows(
      "SELECT DISTINCT schema_name FROM information_schema.schemata WHERE catalog_name = "
      "current_database() AND lower(schema_name) NOT IN ('information_schema', 'pg_catalog') "
      "ORDER BY 1",
      {});
  for (auto& row : rows) {
    if (row[0]) listing.names.push_back(*row[0]);
  }
  if (config_.dialect == Dialect::kLake) {
    // The registry's namespaces, not the engine's default "main".
    std::set<std::string> names;
    for (const auto& table : config_.lake_tables) {
      if (!table.ns.empty()) names.insert(table.ns.back());
    }
    listing.names.assign(names.begin(), names.end());
  }
  CapAt(listing.names, options.cap, listing.truncated);
  return listing;
}

TableListing DuckdbConnection::ListTables(const std::optional<std::string>& schema,
                                          const IntrospectionOptions& options) {
  TableListing listing;
  if (config_.dialect == Dialect::kLake) {
    for (const auto& table : config_.lake_tables) {
      if (table.ns.empty()) continue;
      if (schema && !schema->empty() && table.ns.back() != *schema) continue;
      listing.tables.push_back(TableInfo{table.ns.back(), table.name, "TABLE", std::nullopt});
    }
    CapAt(listing.tables, options.cap, listing.truncated);
    return listing;
  }
  std::string sql =
      "SELECT table_schema, table_name, table_type FROM information_schema.tables WHERE "
      "table_catalog = current_database() AND lower(table_schema) NOT IN "
      "('information_schema', 'pg_catalog')";
  std::vector<std::string> args;
  if (schema && !schema->empty()) {
    sql += " AND table_schema = $1";
    args.push_back(*schema);
  }
  sql += " ORDER BY 1, 2";
  for (auto& row : Rows(sql, args)) {
    listing.tables.push_back(
        TableInfo{row[0].value_or(""), row[1].value_or(""), row[2].value_or(""), std::nullopt});
  }
  CapAt(listing.tables, options.cap, listing.truncated);
  return listing;
}

const LakeTable* DuckdbConnection::FindLakeTable(const std::optional<std::string>& schema,
                                                 const std::string& table) const {
  for (const auto& entry : config_.lake_tables) {
    if (entry.name != table || entry.ns.empty()) continue;
    if (!schema || schema->empty() || entry.ns.back() == *schema) return &entry;
  }
  return nullptr;
}

std::vector<ColumnSchema> DuckdbConnection::ListColumns(const std::optional<std::string>& schema,
                                                        const std::string& table,
                                                        const IntrospectionOptions&) {
  std::optional<std::string> target = schema;
  std::string catalog_filter = "table_catalog = current_database()";
  std::vector<std::string> args;
  if (config_.dialect == Dialect::kLake) {
    const LakeTable* entry = FindLakeTable(schema, table);
    if (!entry) return {};
    target = entry->ns.back();
    if (entry->ns.size() == 2) {
      catalog_filter = "table_catalog = $3";
    }
    args = {*target, table};
    if (entry->ns.size() == 2) args.push_back(entry->ns[0]);
  } else {
    if (!target || target->empty()) target = CurrentSchema();
    if (!target) return {};
    args = {*target, table};
  }
  const TypeMapper& mapper = TypeMapperFor(config_.dialect);
  std::vector<ColumnSchema> columns;
  auto rows = Rows(
      "SELECT column_name, data_type, is_nullable FROM information_schema.columns "
      "WHERE " +
          catalog_filter + " AND table_schema = $1 AND table_name = $2 ORDER BY ordinal_position",
      args);
  for (auto& row : rows) {
    ColumnSchema column;
    column.name = row[0].value_or("");
    column.source_type = row[1].value_or("");
    SourceType source;
    source.name = column.source_type;
    source.display = column.source_type;
    column.mapping = mapper.Map(source, column.name);
    if (row[2]) column.nullable = *row[2] == "YES";
    columns.push_back(std::move(column));
  }
  return columns;
}

TableStats DuckdbConnection::GetTableStats(const std::optional<std::string>& schema,
                                           const std::string& table) {
  if (config_.dialect == Dialect::kLake) {
    const LakeTable* entry = FindLakeTable(schema, table);
    if (!entry) return {};
    return LakeStats(*entry);
  }
  TableStats stats;
  std::optional<std::string> target = schema && !schema->empty() ? schema : CurrentSchema();
  if (!target) return stats;
  auto rows = Rows(
      "SELECT CAST(estimated_size AS BIGINT) FROM duckdb_tables() WHERE database_name = "
      "current_database() AND schema_name = $1 AND table_name = $2",
      {*target, table});
  if (!rows.empty() && rows[0][0]) {
    stats.row_estimate = std::stoll(*rows[0][0]);
    stats.stats_source = "duckdb_tables";
  }
  auto constraints = Rows(
      "SELECT constraint_type, array_to_string(constraint_column_names, ',') FROM "
      "duckdb_constraints() WHERE database_name = current_database() AND schema_name = $1 AND "
      "table_name = $2 AND constraint_type IN ('PRIMARY KEY', 'UNIQUE') ORDER BY 1, 2",
      {*target, table});
  for (auto& row : constraints) {
    IndexInfo info;
    bool primary = row[0].value_or("") == "PRIMARY KEY";
    info.primary = primary;
    info.unique = true;
    info.kind = "art";
    std::string list = row[1].value_or("");
    std::size_t start = 0;
    while (start <= list.size() && !list.empty()) {
      std::size_t comma = list.find(',', start);
      info.columns.push_back(list.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    info.name = (primary ? "pk_" : "uq_") + table;
    stats.indexes.push_back(std::move(info));
  }
  return stats;
}

TableStats DuckdbConnection::LakeStats(const LakeTable& table) {
  TableStats stats;
  if (table.partition_column) {
    stats.indexes.push_back(
        IndexInfo{"partition", {*table.partition_column}, false, false, "partition"});
  }
  if (table.format != "parquet" || LakeLocationProblem(table.location, config_.lake_root) ||
      DuckdbEngine::UnservableReason(table, config_.duckdb_extension_directory)) {
    return stats;
  }
  // Footer reads only: one row per (file, row group, column). Row count over DISTINCT
  // (file, row group) — a naive sum would multiply by the column count.
  std::string scan = DuckdbEngine::ScanSql(table);
  std::string path = scan.substr(scan.find('\'') + 1);
  path = path.substr(0, path.find('\''));
  std::string source = "parquet_metadata('" + path + "')";
  auto rows = Rows(
      "SELECT CAST(sum(n) AS BIGINT) FROM (SELECT DISTINCT file_name, row_group_id, "
      "row_group_num_rows AS n FROM " +
          source + ")",
      {});
  if (!rows.empty() && rows[0][0]) {
    stats.row_estimate = std::stoll(*rows[0][0]);
    stats.stats_source = "parquet_metadata";
  }
  auto bounds = Rows(
      "SELECT path_in_schema, CAST(sum(stats_null_count) AS BIGINT), CAST(sum(num_values) AS "
      "BIGINT), CAST(bool_or(stats_null_count IS NULL) AS VARCHAR), "
      "CAST(min(TRY_CAST(stats_min_value AS DOUBLE)) AS VARCHAR), "
      "CAST(max(TRY_CAST(stats_max_value AS DOUBLE)) AS VARCHAR), min(stats_min_value), "
      "max(stats_max_value), CAST(bool_and(TRY_CAST(stats_min_value AS DOUBLE) IS NOT NULL) AS "
      "VARCHAR) FROM " +
          source + " GROUP BY path_in_schema ORDER BY 1",
      {});
  for (auto& row : bounds) {
    ColumnStats column;
    column.name = row[0].value_or("");
    if (row[3].value_or("true") == "false" && row[1] && row[2] && std::stoll(*row[2]) > 0) {
      column.null_fraction = std::stod(*row[1]) / std::stod(*row[2]);
    }
    bool numeric = row[8].value_or("false") == "true";
    // Numeric-aware bounds: "100" < "9" lexically, so numbers compare as numbers.
    column.min = numeric ? row[4] : row[6];
    column.max = numeric ? row[5] : row[7];
    stats.columns.push_back(std::move(column));
  }
  return stats;
}

}  // namespace dp
