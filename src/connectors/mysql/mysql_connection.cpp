#include "mysql_connection.hpp"

#include <algorithm>
#include <cctype>

#include "connectors/bind_support.hpp"
#include "connectors/driver_errors.hpp"
#include "connectors/pool/statement_guard.hpp"
#include "connectors/wire/wkb_text.hpp"
#include "datapipelines/connectors/connector_factory.hpp"
#include "datapipelines/connectors/named_parameters.hpp"
#include "datapipelines/connectors/type_mapper.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/util/ascii.hpp"
#include "datapipelines/util/crypto.hpp"
#include "datapipelines/util/socket_liveness.hpp"

namespace dp {
namespace {

constexpr unsigned kBinaryCharset = 63;

struct MysqlResultCloser {
  void operator()(MYSQL_RES* result) const { mysql_free_result(result); }
};
using MysqlResultPtr = std::unique_ptr<MYSQL_RES, MysqlResultCloser>;

std::string FieldTypeName(const MYSQL_FIELD& field) {
  switch (field.type) {
    case MYSQL_TYPE_TINY:
      return "tinyint";
    case MYSQL_TYPE_SHORT:
      return "smallint";
    case MYSQL_TYPE_INT24:
      return "mediumint";
    case MYSQL_TYPE_LONG:
      return "int";
    case MYSQL_TYPE_LONGLONG:
      return "bigint";
    case MYSQL_TYPE_DECIMAL:
    case MYSQL_TYPE_NEWDECIMAL:
      return "decimal";
    case MYSQL_TYPE_FLOAT:
      return "float";
    case MYSQL_TYPE_DOUBLE:
      return "double";
    case MYSQL_TYPE_NULL:
      return "null";
    case MYSQL_TYPE_TIMESTAMP:
      return "timestamp";
    case MYSQL_TYPE_DATE:
    case MYSQL_TYPE_NEWDATE:
      return "date";
    case MYSQL_TYPE_TIME:
      return "time";
    case MYSQL_TYPE_DATETIME:
      return "datetime";
    case MYSQL_TYPE_YEAR:
      return "year";
    case MYSQL_TYPE_BIT:
      return "bit";
    case MYSQL_TYPE_JSON:
      return "json";
    case MYSQL_TYPE_ENUM:
      return "enum";
    case MYSQL_TYPE_SET:
      return "set";
    case MYSQL_TYPE_GEOMETRY:
      return "geometry";
    case MYSQL_TYPE_VARCHAR:
    case MYSQL_TYPE_VAR_STRING:
      return "varchar";
    case MYSQL_TYPE_STRING:
      if (field.flags & ENUM_FLAG) return "enum";
      if (field.flags & SET_FLAG) return "set";
      return "char";
    case MYSQL_TYPE_TINY_BLOB:
    case MYSQL_TYPE_MEDIUM_BLOB:
    case MYSQL_TYPE_LONG_BLOB:
    case MYSQL_TYPE_BLOB:
      return "text";
    default:
      return "unknown(" + std::to_string(int(field.type)) + ")";
  }
}

SourceType FieldSourceType(const MYSQL_FIELD& field) {
  SourceType source;
  source.name = FieldTypeName(field);
  source.code = field.type;
  source.length = static_cast<int64_t>(field.length);
  source.is_unsigned = field.flags & UNSIGNED_FLAG;
  source.is_binary = field.charsetnr == kBinaryCharset;
  if (source.name == "decimal") {
    // Display length counts the sign and the decimal point.
    int precision = static_cast<int>(field.length) - (field.decimals > 0 ? 1 : 0) -
                    (source.is_unsigned ? 0 : 1);
    source.precision = precision;
    source.scale = static_cast<int>(field.decimals);
  }
  if (source.name == "text" && source.is_binary) source.name = "blob";
  source.display = source.name;
  return source;
}

// "tinyint(1) unsigned" → width 1.
std::optional<int64_t> DeclaredWidth(const std::string& column_type) {
  auto open = column_type.find('(');
  if (open == std::string::npos) return std::nullopt;
  try {
    return std::stoll(column_type.substr(open + 1));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<int> ToInt(const std::optional<std::string>& text) {
  if (!text || text->empty()) return std::nullopt;
  return std::stoi(*text);
}

}  // namespace

MYSQL* MysqlConnection::Connect(const ConnectorConfig& config) {
  MYSQL* conn = mysql_init(nullptr);
  if (!conn) throw driver_errors::Unreachable(config, "out of memory");
  unsigned timeout = static_cast<unsigned>(config.connect_timeout_seconds);
  mysql_options(conn, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
  mysql_options(conn, MYSQL_SET_CHARSET_NAME, "utf8mb4");
  unsigned local_infile = 0;  // LOAD DATA LOCAL is a client-file read primitive: off
  mysql_options(conn, MYSQL_OPT_LOCAL_INFILE, &local_infile);
  // Sessions in UTC so TIMESTAMP values arrive normalised (type-system.md §8.4).
  mysql_options(conn, MYSQL_INIT_COMMAND, "SET time_zone = '+00:00'");
  if (config.readonly || config.probe) {
    mysql_options(conn, MYSQL_INIT_COMMAND, "SET SESSION TRANSACTION READ ONLY");
  }
  const char* db = config.database.empty() ? nullptr : config.database.c_str();
  if (!mysql_real_connect(conn, config.host.c_str(), config.username.c_str(),
                          config.password.c_str(), db, config.port ? config.port : 3306, nullptr,
                          0)) {
    std::string message = mysql_error(conn);
    mysql_close(conn);
    throw driver_errors::Unreachable(config, message);
  }
  return conn;
}

MysqlConnection::MysqlConnection(const ConnectorConfig& config) : config_(config) {
  conn_ = Connect(config_);
  thread_id_ = mysql_thread_id(conn_);
}

MysqlConnection::~MysqlConnection() {
  if (conn_) mysql_close(conn_);
}

// A server that restarted closed its end: the kernel knows before the client library does.
bool MysqlConnection::broken() const {
  return broken_ || !conn_ || PeerHasClosed(static_cast<int>(mysql_get_socket(conn_)));
}

void MysqlConnection::Fail() {
  unsigned code = mysql_errno(conn_);
  std::string state = mysql_sqlstate(conn_);
  std::string message = mysql_error(conn_);
  // Client-side errors 2000–2999 (server gone, lost connection) poison the session.
  if (code >= 2000 && code < 3000) broken_ = true;
  throw driver_errors::StatementFailed(config_, state, static_cast<int>(code), message);
}

void MysqlConnection::Cancel() {
  // KILL QUERY runs on a second session: the first is blocked reading the result.
  try {
    MYSQL* side = Connect(config_);
    std::string kill = "KILL QUERY " + std::to_string(thread_id_);
    mysql_real_query(side, kill.data(), kill.size());
    mysql_close(side);
  } catch (const std::exception&) {
    // Cancellation is best effort; the statement's own error path reports the outcome.
  }
}

bool MysqlConnection::Ping(int) { return !broken_ && mysql_ping(conn_) == 0; }

std::string MysqlConnection::ServerVersion() {
  const char* info = mysql_get_server_info(conn_);
  return info ? info : "";
}

std::string MysqlConnection::Literal(std::string_view text) {
  std::string out(text.size() * 2 + 3, '\0');
  out[0] = '\'';
  unsigned long written = mysql_real_escape_string(conn_, out.data() + 1, text.data(),
                                                   static_cast<unsigned long>(text.size()));
  out.resize(written + 1);
  out.push_back('\'');
  return out;
}

std::string MysqlConnection::RenderBind(const std::string& name, const BindMap& binds) {
  const BindValue& bind = bind_support::Require(name, binds);
  auto text = bind.DriverText(name);
  if (!text) return "NULL";
  switch (bind.type) {
    case CanonicalType::kInteger:
    case CanonicalType::kBigInteger:
    case CanonicalType::kDecimal:
    case CanonicalType::kBigDecimal:
      return *text;  // validated digits only
    case CanonicalType::kBoolean:
      return *text == "true" ? "TRUE" : "FALSE";
    case CanonicalType::kBinary: {
      static constexpr char kHex[] = "0123456789ABCDEF";
      std::string out = "X'";
      for (unsigned char c : *text) {
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 0xF]);
      }
      return out + "'";
    }
    default:
      return Literal(*text);
  }
}

QueryResult MysqlConnection::Query(std::string_view sql, const BindMap& binds,
                                   const QueryOptions& options, const RowCallback& on_row,
                                   const ColumnsCallback& on_columns) {
  NamedParameters parsed = NamedParameters::Parse(sql, Dialect::kMysql);
  std::string rendered = parsed.pieces[0];
  for (std::size_t i = 0; i < parsed.names.size(); ++i) {
    rendered += RenderBind(parsed.names[i], binds) + parsed.pieces[i + 1];
  }
  StatementGuard guard(options.cancel, EffectiveTimeoutMs(options), [this] { Cancel(); });
  auto interrupted = [&] {
    unsigned code = mysql_errno(conn_);
    // 1317 query interrupted, 1969/3024 statement time limit.
    if (code == 1317 || code == 1969 || code == 3024 || guard.timed_out() || guard.cancelled()) {
      guard.ThrowIfInterrupted();
      throw driver_errors::Cancelled();
    }
  };
  if (mysql_real_query(conn_, rendered.data(), rendered.size()) != 0) {
    interrupted();
    Fail();
  }
  QueryResult result;
  MysqlResultPtr res(mysql_use_result(conn_));
  if (!res) {
    if (mysql_field_count(conn_) != 0) Fail();
    guard.ThrowIfInterrupted();
    result.affected_rows = static_cast<int64_t>(mysql_affected_rows(conn_));
    return result;
  }
  unsigned count = mysql_num_fields(res.get());
  MYSQL_FIELD* fields = mysql_fetch_fields(res.get());
  const TypeMapper& mapper = TypeMapperFor(Dialect::kMysql);
  for (unsigned i = 0; i < count; ++i) {
    ColumnSchema column;
    column.name = fields[i].name;
    SourceType source = FieldSourceType(fields[i]);
    column.source_type = source.display;
    column.mapping = mapper.Map(source, column.name);
    column.nullable = !(fields[i].flags & NOT_NULL_FLAG);
    result.columns.push_back(std::move(column));
  }
  if (on_columns) on_columns(result.columns);
  std::vector<std::optional<std::string_view>> cells(count);
  std::vector<bool> geometry(count);
  for (unsigned i = 0; i < count; ++i) geometry[i] = fields[i].type == MYSQL_TYPE_GEOMETRY;
  std::vector<std::string> scratch(count);
  bool stopped = false;
  while (MYSQL_ROW row = mysql_fetch_row(res.get())) {
    if (stopped) continue;  // drain: the protocol needs the rest read before reuse
    if (options.max_rows >= 0 && result.row_count >= options.max_rows) {
      result.truncated = stopped = true;
      continue;
    }
    unsigned long* lengths = mysql_fetch_lengths(res.get());
    for (unsigned i = 0; i < count; ++i) {
      cells[i] = row[i] ? std::optional<std::string_view>(std::string_view(row[i], lengths[i]))
                        : std::nullopt;
      if (geometry[i] && cells[i]) {
        // WKB (binary, not JSON-safe) → WKT text; undecodable bytes go out as base64.
        auto wkt = MysqlGeometryToWkt(*cells[i]);
        scratch[i] = wkt ? *wkt : "base64:" + Base64Encode(*cells[i]);
        cells[i] = scratch[i];
      }
    }
    ++result.row_count;
    if (!on_row(RowView(result.columns, cells))) result.truncated = stopped = true;
  }
  if (mysql_errno(conn_) != 0) {
    interrupted();
    Fail();
  }
  // A killed SLEEP() returns normally: the guard, not the protocol, knows it was stopped.
  guard.ThrowIfInterrupted();
  return result;
}

MysqlConnection::Rows MysqlConnection::Fetch(const std::string& sql) {
  if (mysql_real_query(conn_, sql.data(), sql.size()) != 0) Fail();
  MysqlResultPtr res(mysql_store_result(conn_));
  Rows rows;
  if (!res) {
    if (mysql_field_count(conn_) != 0) Fail();
    return rows;
  }
  unsigned count = mysql_num_fields(res.get());
  while (MYSQL_ROW row = mysql_fetch_row(res.get())) {
    unsigned long* lengths = mysql_fetch_lengths(res.get());
    auto& out = rows.emplace_back();
    for (unsigned i = 0; i < count; ++i) {
      if (row[i]) {
        out.emplace_back(std::string(row[i], lengths[i]));
      } else {
        out.emplace_back(std::nullopt);
      }
    }
  }
  return rows;
}

std::optional<std::string> MysqlConnection::CurrentSchema() {
  auto rows = Fetch("SELECT DATABASE()");
  if (rows.empty() || !rows[0][0] || rows[0][0]->empty()) return std::nullopt;
  return rows[0][0];
}

std::string MysqlConnection::SystemSchemaFilter(const std::string& column,
                                                const IntrospectionOptions& options) {
  std::string list;
  for (const char* floor : {"information_schema", "mysql", "performance_schema", "sys"}) {
    if (std::find(options.include_schemas.begin(), options.include_schemas.end(), floor) !=
        options.include_schemas.end()) {
      continue;
    }
    list += (list.empty() ? "" : ",") + Literal(floor);
  }
  return list.empty() ? "1=1" : "lower(" + column + ") NOT IN (" + list + ")";
}

NamespaceListing MysqlConnection::ListNamespaces(const IntrospectionOptions& options) {
  auto rows = Fetch("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE " +
                    SystemSchemaFilter("SCHEMA_NAME", options) + " ORDER BY SCHEMA_NAME LIMIT " +
                    std::to_string(options.cap + 1));
  NamespaceListing listing;
  for (auto& row : rows) listing.names.push_back(row[0].value_or(""));
  CapAt(listing.names, options.cap, listing.truncated);
  return listing;
}

TableListing MysqlConnection::ListTables(const std::optional<std::string>& schema,
                                         const IntrospectionOptions& options) {
  std::string sql =
      "SELECT TABLE_SCHEMA, TABLE_NAME, CASE TABLE_TYPE WHEN 'BASE TABLE' THEN 'TABLE' "
      "ELSE TABLE_TYPE END, TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_TYPE IN "
      "('BASE TABLE','VIEW') AND " +
      SystemSchemaFilter("TABLE_SCHEMA", options);
  if (schema) sql += " AND TABLE_SCHEMA = " + Literal(*schema);
  sql += " ORDER BY TABLE_SCHEMA, TABLE_NAME LIMIT " + std::to_string(options.cap + 1);
  TableListing listing;
  for (auto& row : Fetch(sql)) {
    std::optional<std::string> remarks = row[3];
    // MySQL stores "VIEW" as a view's comment; that is not a remark.
    if (remarks && (remarks->empty() || (row[2] == "VIEW" && *remarks == "VIEW"))) remarks.reset();
    listing.tables.push_back(
        TableInfo{row[0].value_or(""), row[1].value_or(""), row[2].value_or(""), remarks});
  }
  CapAt(listing.tables, options.cap, listing.truncated);
  return listing;
}

std::vector<ColumnSchema> MysqlConnection::ListColumns(const std::optional<std::string>& schema,
                                                       const std::string& table,
                                                       const IntrospectionOptions& options) {
  std::optional<std::string> target = schema ? schema : CurrentSchema();
  if (!target) {
    throw DomainError(errc::kParameterRequired,
                      "the connection has no current database; pass the table's namespace",
                      Json{{"parameter", "namespace"}});
  }
  auto rows = Fetch(
      "SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, NUMERIC_PRECISION, NUMERIC_SCALE, "
      "IS_NULLABLE, COLUMN_COMMENT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = " +
      Literal(*target) + " AND TABLE_NAME = " + Literal(table) + " AND " +
      SystemSchemaFilter("TABLE_SCHEMA", options) + " ORDER BY ORDINAL_POSITION");
  const TypeMapper& mapper = TypeMapperFor(Dialect::kMysql);
  std::vector<ColumnSchema> columns;
  for (auto& row : rows) {
    ColumnSchema column;
    column.name = row[0].value_or("");
    std::string column_type = row[2].value_or("");
    SourceType source;
    source.name = AsciiLower(row[1].value_or(""));
    source.display = column_type;
    source.is_unsigned = column_type.find("unsigned") != std::string::npos;
    if (source.name == "tinyint" || source.name == "bit")
      source.length = DeclaredWidth(column_type);
    if (source.name == "decimal" || source.name == "numeric") {
      source.precision = ToInt(row[3]);
      source.scale = ToInt(row[4]);
    }
    column.source_type = column_type;
    column.mapping = mapper.Map(source, column.name);
    column.nullable = row[5].value_or("YES") == "YES";
    if (row[6] && !row[6]->empty()) column.remarks = row[6];
    columns.push_back(std::move(column));
  }
  return columns;
}

TableStats MysqlConnection::GetTableStats(const std::optional<std::string>& schema,
                                          const std::string& table) {
  TableStats stats;
  std::optional<std::string> target = schema ? schema : CurrentSchema();
  if (!target) return stats;
  std::string where = "TABLE_SCHEMA = " + Literal(*target) + " AND TABLE_NAME = " + Literal(table);
  auto rows = Fetch(
      "SELECT TABLE_ROWS, DATE_FORMAT(coalesce(UPDATE_TIME, CREATE_TIME), "
      "'%Y-%m-%dT%H:%i:%s.000Z') FROM information_schema.TABLES WHERE " +
      where);
  if (rows.empty()) return stats;
  stats.stats_source = "information_schema.tables";
  if (rows[0][0]) stats.row_estimate = std::stoll(*rows[0][0]);
  stats.stats_as_of = rows[0][1];
  auto index_rows = Fetch(
      "SELECT INDEX_NAME, NON_UNIQUE, COLUMN_NAME, INDEX_TYPE FROM information_schema.STATISTICS "
      "WHERE " +
      where + " ORDER BY INDEX_NAME <> 'PRIMARY', INDEX_NAME, SEQ_IN_INDEX");
  for (auto& row : index_rows) {
    std::string name = row[0].value_or("");
    if (stats.indexes.empty() || stats.indexes.back().name != name) {
      std::string kind = AsciiLower(row[3].value_or(""));
      stats.indexes.push_back(IndexInfo{name, {}, row[1] == "0", name == "PRIMARY", kind});
    }
    stats.indexes.back().columns.push_back(row[2].value_or(""));
  }
  return stats;
}

}  // namespace dp
