#include "postgres_connection.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

#include "connectors/bind_support.hpp"
#include "connectors/driver_errors.hpp"
#include "connectors/pool/statement_guard.hpp"
#include "datapipelines/connectors/connector_factory.hpp"
#include "datapipelines/connectors/named_parameters.hpp"
#include "datapipelines/connectors/type_mapper.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/util/socket_liveness.hpp"
#include "pg_array_text.hpp"

namespace dp {
namespace {

// Rows past max_rows discarded before a still-producing statement is cancelled instead.
constexpr int64_t kDrainBudget = 1000;
// Rows per FETCH of a cursor read: one PGresult per batch instead of one per row (single-row
// mode allocates and frees a whole PGresult, attribute descriptors included, for every row).
constexpr int64_t kFetchRows = 8192;

// A statement whose first keyword makes it a query a cursor can run (SELECT, WITH, VALUES,
// TABLE); anything else keeps the row-by-row path. A WITH the server refuses as a cursor (a
// data-modifying CTE) falls back there too.
bool ReadsRows(std::string_view sql) {
  std::size_t i = 0;
  while (i < sql.size()) {
    char c = sql[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(') {
      ++i;
    } else if (sql.compare(i, 2, "--") == 0) {
      std::size_t end = sql.find('\n', i);
      i = end == std::string_view::npos ? sql.size() : end + 1;
    } else if (sql.compare(i, 2, "/*") == 0) {
      std::size_t end = sql.find("*/", i + 2);
      i = end == std::string_view::npos ? sql.size() : end + 2;
    } else {
      break;
    }
  }
  std::string word;
  while (i < sql.size() && std::isalpha(static_cast<unsigned char>(sql[i]))) {
    word.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(sql[i++]))));
  }
  return word == "SELECT" || word == "WITH" || word == "VALUES" || word == "TABLE";
}

struct PgResultCloser {
  void operator()(PGresult* result) const { PQclear(result); }
};
using PgResultPtr = std::unique_ptr<PGresult, PgResultCloser>;

// libpq keywords an operator may pass through `options` (TLS and session knobs). Anything
// naming a credential, key or file of secrets is refused (datasources.md §5.6).
const std::set<std::string>& PassthroughKeywords() {
  static const std::set<std::string> kKeys{
      "sslmode",          "sslrootcert",          "sslcert",
      "sslcrl",           "sslcompression",       "sslsni",
      "application_name", "target_session_attrs", "keepalives",
      "keepalives_idle",  "keepalives_interval",  "keepalives_count",
      "tcp_user_timeout", "gssencmode",           "requiressl",
      "channel_binding"};
  return kKeys;
}

// A comma-separated list of plain identifiers: nothing that could end the -c option.
bool IsSchemaList(const std::string& value) {
  if (value.empty() || value.size() > 512) return false;
  for (char c : value) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == ',';
    if (!ok) return false;
  }
  return true;
}

Oid BindOid(CanonicalType type) {
  switch (type) {
    case CanonicalType::kBoolean:
      return 16;
    case CanonicalType::kInteger:
      return 23;
    case CanonicalType::kBigInteger:
      return 20;
    case CanonicalType::kDecimal:
    case CanonicalType::kBigDecimal:
      return 1700;
    case CanonicalType::kBinary:
      return 17;
    case CanonicalType::kDate:
      return 1082;
    case CanonicalType::kTime:
      return 1083;
    case CanonicalType::kTimestamp:
      return 1184;
    default:
      return 0;  // STRING/NULL: let the server infer (uuid, jsonb and varchar comparisons work)
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 0;
}

// bytea hex output ("\x4142") → raw bytes.
void DecodeBytea(std::string_view text, std::string& out) {
  out.clear();
  if (text.size() >= 2 && text[0] == '\\' && text[1] == 'x') {
    out.reserve((text.size() - 2) / 2);
    for (std::size_t i = 2; i + 1 < text.size(); i += 2) {
      out.push_back(static_cast<char>(HexValue(text[i]) << 4 | HexValue(text[i + 1])));
    }
    return;
  }
  out.assign(text);
}

// money text under lc_monetary=C ("-$1,234.56") → plain decimal ("-1234.56").
void PlainMoney(std::string_view text, std::string& out) {
  out.clear();
  for (char c : text) {
    if ((c >= '0' && c <= '9') || c == '.' || c == '-') out.push_back(c);
  }
}

std::optional<std::string> Cell(const PGresult* result, int row, int col) {
  if (PQgetisnull(result, row, col)) return std::nullopt;
  return std::string(PQgetvalue(result, row, col), PQgetlength(result, row, col));
}

std::string SqlState(const PGresult* result) {
  const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  return state ? state : "";
}

SourceType PgSourceType(const std::string& name, char category, int typmod,
                        const std::string& display) {
  SourceType source;
  source.name = name;
  source.category = category;
  source.display = display;
  if (name == "numeric" && typmod >= 4) {
    source.precision = ((typmod - 4) >> 16) & 0xffff;
    source.scale = (typmod - 4) & 0xffff;
  }
  return source;
}

}  // namespace

PostgresConnection::PostgresConnection(const ConnectorConfig& config) : config_(config) {
  std::string port = std::to_string(config.port ? config.port : 5432);
  std::string timeout = std::to_string(config.connect_timeout_seconds);
  // Fixed session settings so text output is parseable and temporal values are UTC.
  std::string options =
      "-c TimeZone=UTC -c DateStyle=ISO,YMD -c IntervalStyle=postgres -c extra_float_digits=1 "
      "-c lc_monetary=C";
  if (config.readonly || config.probe) options += " -c default_transaction_read_only=on";
  // The JDBC URL's currentSchema (the PostgreSQL driver's spelling) sets the search path, so
  // unqualified names — a write-back table, a template's FROM — resolve in that schema.
  if (auto it = config.options.find("currentSchema"); it != config.options.end()) {
    if (IsSchemaList(it->second)) options += " -c search_path=" + it->second;
  }
  std::vector<std::pair<std::string, std::string>> params{
      {"host", config.host},         {"port", port},
      {"dbname", config.database},   {"user", config.username},
      {"password", config.password}, {"connect_timeout", timeout},
      {"client_encoding", "UTF8"},   {"application_name", "datapipelines"},
      {"options", options}};
  for (const auto& [key, value] : config.options) {
    if (PassthroughKeywords().count(key)) params.emplace_back(key, value);
  }
  std::vector<const char*> keys, values;
  for (const auto& [key, value] : params) {
    keys.push_back(key.c_str());
    values.push_back(value.c_str());
  }
  keys.push_back(nullptr);
  values.push_back(nullptr);
  conn_ = PQconnectdbParams(keys.data(), values.data(), 0);
  if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
    std::string message = conn_ ? PQerrorMessage(conn_) : "out of memory";
    PQfinish(conn_);
    conn_ = nullptr;
    throw driver_errors::Unreachable(config_, message);
  }
  cancel_ = PQgetCancel(conn_);
  // Server NOTICEs ("table does not exist, skipping") are not ours to print on stderr.
  PQsetNoticeProcessor(
      conn_, [](void*, const char*) {}, nullptr);
}

PostgresConnection::~PostgresConnection() {
  if (cancel_) PQfreeCancel(cancel_);
  if (conn_) PQfinish(conn_);
}

// A server that restarted closed its end: the kernel knows before libpq does.
bool PostgresConnection::broken() const {
  return !conn_ || PQstatus(conn_) != CONNECTION_OK || PeerHasClosed(PQsocket(conn_));
}

void PostgresConnection::Cancel() {
  char error[256];
  if (cancel_) PQcancel(cancel_, error, sizeof error);
}

void PostgresConnection::Fail(PGresult* result) {
  std::string state = SqlState(result);
  std::string message = result ? PQresultErrorMessage(result) : PQerrorMessage(conn_);
  if (result) PQclear(result);
  if (broken()) throw driver_errors::Unreachable(config_, message);
  throw driver_errors::StatementFailed(config_, state, 0, message);
}

PostgresConnection::Rows PostgresConnection::Fetch(
    const std::string& sql, const std::vector<std::optional<std::string>>& params) {
  std::vector<const char*> values;
  for (const auto& param : params) values.push_back(param ? param->c_str() : nullptr);
  PGresult* raw = PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr,
                               values.data(), nullptr, nullptr, 0);
  if (PQresultStatus(raw) != PGRES_TUPLES_OK && PQresultStatus(raw) != PGRES_COMMAND_OK) {
    Fail(raw);
  }
  PgResultPtr result(raw);
  Rows rows(PQntuples(raw));
  for (int r = 0; r < PQntuples(raw); ++r) {
    for (int c = 0; c < PQnfields(raw); ++c) rows[r].push_back(Cell(raw, r, c));
  }
  return rows;
}

bool PostgresConnection::ResolveTypes(const std::vector<Oid>& oids) {
  std::string missing = "{";
  for (Oid oid : oids) {
    if (types_.count(oid)) continue;
    if (missing.size() > 1) missing += ",";
    missing += std::to_string(oid);
  }
  if (missing.size() == 1) return false;
  missing += "}";
  // Domains resolve to their base type; arrays and enums keep their own category.
  auto rows = Fetch(
      "SELECT t.oid::text, coalesce(b.typname, t.typname), coalesce(b.typcategory, t.typcategory) "
      "FROM pg_catalog.pg_type t LEFT JOIN pg_catalog.pg_type b "
      "ON t.typtype = 'd' AND b.oid = t.typbasetype WHERE t.oid = ANY($1::oid[])",
      {missing});
  for (auto& row : rows) {
    std::string category = row[2].value_or("");
    types_[static_cast<Oid>(std::stoul(*row[0]))] =
        PgType{row[1].value_or(""), category.empty() ? '\0' : category[0]};
  }
  return true;
}

std::vector<ColumnSchema> PostgresConnection::DescribeColumns(const PGresult* description,
                                                              bool& looked_up) {
  int count = PQnfields(description);
  std::vector<Oid> oids;
  for (int i = 0; i < count; ++i) oids.push_back(PQftype(description, i));
  looked_up = ResolveTypes(oids);
  const TypeMapper& mapper = TypeMapperFor(Dialect::kPostgres);
  std::vector<ColumnSchema> columns;
  for (int i = 0; i < count; ++i) {
    ColumnSchema column;
    column.name = PQfname(description, i);
    const PgType& type = types_[oids[i]];
    column.source_type = type.name;
    column.mapping = mapper.Map(
        PgSourceType(type.name, type.category, PQfmod(description, i), type.name), column.name);
    columns.push_back(std::move(column));
  }
  return columns;
}

void PostgresConnection::Drain() {
  while (PGresult* rest = PQgetResult(conn_)) PQclear(rest);
}

bool PostgresConnection::CopyIn(std::string_view table_sql, const std::vector<std::string>& columns,
                                const std::function<bool(std::string& buffer)>& fill) {
  std::string sql = "COPY " + std::string(table_sql);
  for (std::size_t i = 0; i < columns.size(); ++i) {
    std::string quoted = "\"";
    for (char c : columns[i]) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    sql += (i ? ", " : " (") + quoted + "\"";
  }
  sql += std::string(columns.empty() ? "" : ")") + " FROM STDIN";
  PGresult* start = PQexec(conn_, sql.c_str());
  if (PQresultStatus(start) != PGRES_COPY_IN) {
    Drain();
    Fail(start);
  }
  PQclear(start);
  std::string error;
  try {
    error = StreamCopyData(fill);
  } catch (...) {
    // Leave the session usable: the server discards the partial COPY.
    PQputCopyEnd(conn_, "aborted by the client");
    Drain();
    throw;
  }
  if (PQputCopyEnd(conn_, error.empty() ? nullptr : error.c_str()) != 1) Fail(nullptr);
  PGresult* end = PQgetResult(conn_);
  Drain();
  if (PQresultStatus(end) != PGRES_COMMAND_OK) Fail(end);
  PQclear(end);
  return true;
}

std::string PostgresConnection::StreamCopyData(
    const std::function<bool(std::string& buffer)>& fill) {
  std::string buffer;
  for (bool more = true; more;) {
    buffer.clear();
    more = fill(buffer);
    if (buffer.empty()) continue;
    if (PQputCopyData(conn_, buffer.data(), static_cast<int>(buffer.size())) != 1) {
      return PQerrorMessage(conn_);
    }
  }
  return "";
}

QueryResult PostgresConnection::Query(std::string_view sql, const BindMap& binds,
                                      const QueryOptions& options, const RowCallback& on_row,
                                      const ColumnsCallback& on_columns) {
  NamedParameters parsed = NamedParameters::Parse(sql, Dialect::kPostgres);
  std::vector<std::string> distinct = parsed.DistinctNames();
  std::string rendered = parsed.pieces[0];
  for (std::size_t i = 0; i < parsed.names.size(); ++i) {
    auto pos = std::find(distinct.begin(), distinct.end(), parsed.names[i]) - distinct.begin();
    rendered += "$" + std::to_string(pos + 1) + parsed.pieces[i + 1];
  }
  std::vector<Oid> types;
  std::vector<std::optional<std::string>> texts;
  std::vector<int> formats;
  for (const auto& name : distinct) {
    const BindValue& bind = bind_support::Require(name, binds);
    types.push_back(BindOid(bind.type));
    texts.push_back(bind.DriverText(name));
    formats.push_back(bind.type == CanonicalType::kBinary ? 1 : 0);
  }
  std::vector<const char*> values;
  std::vector<int> lengths;
  for (const auto& text : texts) {
    values.push_back(text ? text->data() : nullptr);
    lengths.push_back(text ? static_cast<int>(text->size()) : 0);
  }
  int n = static_cast<int>(distinct.size());

  PGresult* prepared = PQprepare(conn_, "", rendered.c_str(), n, types.data());
  if (PQresultStatus(prepared) != PGRES_COMMAND_OK && distinct.empty() &&
      SqlState(prepared) == "42601" && !broken() &&
      std::string_view(PQresultErrorMessage(prepared)).find("multiple commands") !=
          std::string_view::npos) {
    // A multi-statement script (DDL in setup paths) cannot be prepared; run it simply.
    PQclear(prepared);
    PGresult* raw = PQexec(conn_, rendered.c_str());
    ExecStatusType status = PQresultStatus(raw);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) Fail(raw);
    QueryResult result;
    const char* affected = PQcmdTuples(raw);
    result.affected_rows = affected && *affected ? std::stoll(affected) : 0;
    PQclear(raw);
    return result;
  }

  if (PQresultStatus(prepared) != PGRES_COMMAND_OK) Fail(prepared);
  PQclear(prepared);
  PGresult* description = PQdescribePrepared(conn_, "");
  if (PQresultStatus(description) != PGRES_COMMAND_OK) Fail(description);
  QueryResult result;
  bool looked_up = false;
  {
    PgResultPtr owner(description);
    result.columns = DescribeColumns(description, looked_up);
  }
  if (looked_up) {
    // The pg_type lookup reused the unnamed statement slot: prepare ours again.
    prepared = PQprepare(conn_, "", rendered.c_str(), n, types.data());
    if (PQresultStatus(prepared) != PGRES_COMMAND_OK) Fail(prepared);
    PQclear(prepared);
  }
  if (!result.columns.empty() && on_columns) on_columns(result.columns);

  std::vector<std::optional<std::string_view>> cells(result.columns.size());
  std::vector<std::string> scratch(result.columns.size());
  // Per column, decided once: which cells need rewriting before the encoder sees them.
  enum class Rewrite : char { kNone, kBytea, kMoney };
  std::vector<Rewrite> rewrite;
  rewrite.reserve(result.columns.size());
  for (const auto& column : result.columns) {
    rewrite.push_back(column.mapping.type == CanonicalType::kBinary ? Rewrite::kBytea
                      : column.source_type == "money"               ? Rewrite::kMoney
                                                                    : Rewrite::kNone);
  }
  // One row of `raw` to on_row; false when the caller wants no more.
  auto emit = [&](const PGresult* raw, int row) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      int col = static_cast<int>(c);
      if (PQgetisnull(raw, row, col)) {
        cells[c] = std::nullopt;
        continue;
      }
      std::string_view text(PQgetvalue(raw, row, col), PQgetlength(raw, row, col));
      if (rewrite[c] == Rewrite::kBytea) {
        DecodeBytea(text, scratch[c]);
        text = scratch[c];
      } else if (rewrite[c] == Rewrite::kMoney) {
        PlainMoney(text, scratch[c]);
        text = scratch[c];
      }
      cells[c] = text;
    }
    ++result.row_count;
    return on_row(RowView(result.columns, cells));
  };

  StatementGuard guard(options.cancel, EffectiveTimeoutMs(options), [this] { Cancel(); });
  // Large reads go through a cursor in batches; a capped read (preview, probe, ping) and
  // anything inside the caller's own transaction stay row by row.
  const bool large = options.max_rows < 0 || options.max_rows >= kFetchRows;
  if (large && !result.columns.empty() && PQtransactionStatus(conn_) == PQTRANS_IDLE &&
      ReadsRows(rendered)) {
    if (QueryInBatches(rendered, n, types, values, lengths, formats, options, guard, emit,
                       result)) {
      return result;
    }
    // Refused as a cursor. The attempt reused the unnamed statement slot: prepare ours again.
    prepared = PQprepare(conn_, "", rendered.c_str(), n, types.data());
    if (PQresultStatus(prepared) != PGRES_COMMAND_OK) Fail(prepared);
    PQclear(prepared);
  }
  if (!PQsendQueryPrepared(conn_, "", n, values.data(), lengths.data(), formats.data(), 0)) {
    Fail(nullptr);
  }
  PQsetSingleRowMode(conn_);
  bool stopped = false, cancelled = false;
  int64_t discarded = 0;
  // Past the last wanted row: rows libpq has already read are cheaper to discard than a
  // cancel (a second connection to the server, ~ms); cancel as soon as the next result would
  // have to wait for the server (PQisBusy only parses what is buffered, it reads nothing).
  auto settle = [&] {
    if (cancelled) return;
    if (PQisBusy(conn_) || ++discarded > kDrainBudget) {
      Cancel();
      cancelled = true;
    }
  };
  while (PGresult* raw = PQgetResult(conn_)) {
    PgResultPtr current(raw);
    ExecStatusType status = PQresultStatus(raw);
    if (status == PGRES_SINGLE_TUPLE) {
      if (stopped) {
        settle();
        continue;
      }
      if (options.max_rows >= 0 && result.row_count >= options.max_rows) {
        result.truncated = stopped = true;
        settle();
        continue;
      }
      if (!emit(raw, 0)) {
        result.truncated = stopped = true;
        settle();
      }
    } else if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) {
      const char* affected = PQcmdTuples(raw);
      if (status == PGRES_COMMAND_OK && affected && *affected) {
        result.affected_rows = std::stoll(affected);
      }
    } else if (!stopped) {
      std::string state = SqlState(raw);
      Drain();
      if (state == "57014") {
        guard.ThrowIfInterrupted();
        throw driver_errors::Cancelled();
      }
      Fail(current.release());
    }
  }
  if (broken()) throw driver_errors::Unreachable(config_, PQerrorMessage(conn_));
  if (!stopped) guard.ThrowIfInterrupted();
  return result;
}

struct PostgresConnection::Segment {
  PgResultPtr result;  // the rows, or the first error; null when every statement succeeded
  bool failed = false;
};

PostgresConnection::Segment PostgresConnection::ReadSegment() {
  Segment segment;
  int nulls = 0;
  for (;;) {
    PGresult* raw = PQgetResult(conn_);
    if (raw == nullptr) {
      // One null ends each statement's results; two in a row: nothing more is pending.
      if (broken() || ++nulls > 1) throw driver_errors::Unreachable(config_, PQerrorMessage(conn_));
      continue;
    }
    nulls = 0;
    ExecStatusType status = PQresultStatus(raw);
    if (status == PGRES_PIPELINE_SYNC) {
      PQclear(raw);
      return segment;
    }
    if (status == PGRES_FATAL_ERROR && !segment.failed) {
      segment.result.reset(raw);
      segment.failed = true;
    } else if (status == PGRES_TUPLES_OK && !segment.failed) {
      segment.result.reset(raw);
    } else {
      PQclear(raw);  // command acknowledgements; statements the error aborted
    }
  }
}

bool PostgresConnection::QueryInBatches(
    const std::string& rendered, int n, const std::vector<Oid>& types,
    const std::vector<const char*>& values, const std::vector<int>& lengths,
    const std::vector<int>& formats, const QueryOptions& options, StatementGuard& guard,
    const std::function<bool(const PGresult*, int)>& emit, QueryResult& result) {
  // max_rows + 1 rows at most: the extra one says the result was truncated.
  const int64_t batch =
      options.max_rows >= 0 ? std::clamp<int64_t>(options.max_rows + 1, 1, kFetchRows) : kFetchRows;
  const std::string fetch = "FETCH FORWARD " + std::to_string(batch) + " FROM dp_rows";
  const std::string declare = "DECLARE dp_rows NO SCROLL CURSOR FOR " + rendered;
  if (PQenterPipelineMode(conn_) != 1) return false;
  int pending = 0;  // segments sent and not yet read
  auto send = [&](const std::string& sql, int count, const Oid* oids, const char* const* args,
                  const int* lens, const int* fmts) {
    if (PQsendQueryParams(conn_, sql.c_str(), count, oids, args, lens, fmts, 0) != 1) {
      throw driver_errors::Unreachable(config_, PQerrorMessage(conn_));
    }
  };
  auto sync = [&] {
    if (PQpipelineSync(conn_) != 1) {
      throw driver_errors::Unreachable(config_, PQerrorMessage(conn_));
    }
    ++pending;
  };
  auto send_fetch = [&] {
    send(fetch, 0, nullptr, nullptr, nullptr, nullptr);
    sync();
  };
  // Ends the transaction (whatever is in flight read and dropped) and leaves pipeline mode.
  auto finish = [&](const char* verb) {
    while (pending > 0) {
      --pending;
      ReadSegment();
    }
    send(verb, 0, nullptr, nullptr, nullptr, nullptr);
    sync();
    --pending;
    Segment end = ReadSegment();
    PQexitPipelineMode(conn_);
    return end;
  };
  auto fail = [&](Segment& failed) {
    std::string state = SqlState(failed.result.get());
    finish("ROLLBACK");
    if (state == "57014") {
      guard.ThrowIfInterrupted();
      throw driver_errors::Cancelled();
    }
    Fail(failed.result.release());
  };
  try {
    // One round trip: BEGIN + DECLARE, then the first batch.
    send("BEGIN", 0, nullptr, nullptr, nullptr, nullptr);
    send(declare, n, types.data(), values.data(), lengths.data(), formats.data());
    sync();
    send_fetch();
    --pending;
    Segment opened = ReadSegment();
    if (opened.failed) {
      // 0A000: a data-modifying WITH; 42601: a form DECLARE does not take (SELECT INTO).
      // Anything else is the statement's own failure (permissions, a missing relation).
      std::string state = SqlState(opened.result.get());
      if ((state != "0A000" && state != "42601") || broken()) fail(opened);
      finish("ROLLBACK");
      return false;  // not a cursor-able statement: the caller runs it row by row
    }
    for (;;) {
      --pending;
      Segment rows = ReadSegment();
      if (rows.failed) fail(rows);
      const int count = rows.result ? PQntuples(rows.result.get()) : 0;
      const bool more = count == batch;
      // The server produces the next batch while this one is handed out.
      if (more && !guard.fired()) send_fetch();
      bool stopped = false;
      for (int r = 0; r < count && !stopped; ++r) {
        if (options.max_rows >= 0 && result.row_count >= options.max_rows) {
          result.truncated = stopped = true;
        } else if (!emit(rows.result.get(), r)) {
          result.truncated = stopped = true;
        }
      }
      if (stopped || !more) break;
      if (guard.fired()) {
        finish("ROLLBACK");
        guard.ThrowIfInterrupted();
        throw driver_errors::Cancelled();
      }
    }
    Segment end = finish("COMMIT");
    if (end.failed) Fail(end.result.release());
  } catch (...) {
    // A callback's failure (or a lost session): leave the session idle when it still can be.
    if (PQpipelineStatus(conn_) != PQ_PIPELINE_OFF && !broken()) {
      try {
        finish("ROLLBACK");
      } catch (...) {
      }
    }
    throw;
  }
  return true;
}

bool PostgresConnection::Ping(int timeout_ms) {
  if (broken()) return false;
  try {
    QueryOptions options;
    options.timeout_ms = timeout_ms;
    Query("SELECT 1", {}, options, [](const RowView&) { return true; });
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

std::string PostgresConnection::ServerVersion() {
  auto rows = Fetch("SELECT version()", {});
  return rows.empty() ? "" : rows[0][0].value_or("");
}

std::optional<std::string> PostgresConnection::CurrentSchema() {
  auto rows = Fetch("SELECT current_schema()", {});
  if (rows.empty() || !rows[0][0] || rows[0][0]->empty()) return std::nullopt;
  return rows[0][0];
}

std::string PostgresConnection::ExcludedSchemas(const IntrospectionOptions& options) {
  std::string out = "{";
  for (const char* floor : {"pg_catalog", "information_schema"}) {
    if (std::find(options.include_schemas.begin(), options.include_schemas.end(), floor) !=
        options.include_schemas.end()) {
      continue;
    }
    if (out.size() > 1) out += ",";
    out += floor;
  }
  return out + "}";
}

NamespaceListing PostgresConnection::ListNamespaces(const IntrospectionOptions& options) {
  auto rows = Fetch(
      "SELECT nspname FROM pg_catalog.pg_namespace WHERE NOT (lower(nspname) = ANY($1::text[])) "
      "AND nspname !~ '^pg_toast' AND nspname !~ '^pg_temp_' ORDER BY nspname LIMIT $2",
      {ExcludedSchemas(options), std::to_string(options.cap + 1)});
  NamespaceListing listing;
  for (auto& row : rows) listing.names.push_back(row[0].value_or(""));
  CapAt(listing.names, options.cap, listing.truncated);
  return listing;
}

TableListing PostgresConnection::ListTables(const std::optional<std::string>& schema,
                                            const IntrospectionOptions& options) {
  auto rows = Fetch(
      "SELECT n.nspname, c.relname, CASE c.relkind WHEN 'r' THEN 'TABLE' WHEN 'v' THEN 'VIEW' "
      "WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'p' THEN 'PARTITIONED TABLE' "
      "WHEN 'f' THEN 'FOREIGN TABLE' END, obj_description(c.oid, 'pg_class') "
      "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
      "WHERE c.relkind IN ('r','v','m','p','f') AND NOT (lower(n.nspname) = ANY($1::text[])) "
      "AND n.nspname !~ '^pg_toast' AND n.nspname !~ '^pg_temp_' "
      "AND ($2::text IS NULL OR n.nspname = $2) ORDER BY n.nspname, c.relname LIMIT $3",
      {ExcludedSchemas(options), schema, std::to_string(options.cap + 1)});
  TableListing listing;
  for (auto& row : rows) {
    listing.tables.push_back(
        TableInfo{row[0].value_or(""), row[1].value_or(""), row[2].value_or(""), row[3]});
  }
  CapAt(listing.tables, options.cap, listing.truncated);
  return listing;
}

std::vector<ColumnSchema> PostgresConnection::ListColumns(const std::optional<std::string>& schema,
                                                          const std::string& table,
                                                          const IntrospectionOptions& options) {
  std::optional<std::string> target = schema ? schema : CurrentSchema();
  if (!target) {
    throw DomainError(errc::kParameterRequired,
                      "the datasource reports no current schema; pass the table's schema",
                      Json{{"parameter", "namespace"}});
  }
  auto rows = Fetch(
      "SELECT a.attname, coalesce(b.typname, t.typname), coalesce(b.typcategory, t.typcategory), "
      "CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE a.atttypmod END, "
      "format_type(a.atttypid, a.atttypmod), NOT a.attnotnull, col_description(c.oid, a.attnum) "
      "FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid "
      "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
      "JOIN pg_catalog.pg_type t ON t.oid = a.atttypid "
      "LEFT JOIN pg_catalog.pg_type b ON t.typtype = 'd' AND b.oid = t.typbasetype "
      "WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped "
      "AND NOT (lower(n.nspname) = ANY($3::text[])) ORDER BY a.attnum",
      {target, table, ExcludedSchemas(options)});
  const TypeMapper& mapper = TypeMapperFor(Dialect::kPostgres);
  std::vector<ColumnSchema> columns;
  for (auto& row : rows) {
    ColumnSchema column;
    column.name = row[0].value_or("");
    std::string category = row[2].value_or("");
    column.source_type = row[4].value_or("");
    column.mapping =
        mapper.Map(PgSourceType(row[1].value_or(""), category.empty() ? 0 : category[0],
                                std::stoi(row[3].value_or("-1")), column.source_type),
                   column.name);
    column.nullable = row[5].value_or("t") == "t";
    column.remarks = row[6];
    columns.push_back(std::move(column));
  }
  return columns;
}

TableStats PostgresConnection::GetTableStats(const std::optional<std::string>& schema,
                                             const std::string& table) {
  TableStats stats;
  std::optional<std::string> target = schema ? schema : CurrentSchema();
  if (!target) return stats;
  auto rel = Fetch(
      "SELECT c.oid::text, c.reltuples::bigint, "
      "to_char(greatest(s.last_analyze, s.last_autoanalyze) AT TIME ZONE 'UTC', "
      "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') "
      "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
      "LEFT JOIN pg_catalog.pg_stat_all_tables s ON s.relid = c.oid "
      "WHERE n.nspname = $1 AND c.relname = $2",
      {target, table});
  if (rel.empty()) return stats;
  stats.stats_source = "pg_class";
  // reltuples is -1 for a never-analysed table (PG 14+): the catalog does not know.
  if (rel[0][1] && std::stoll(*rel[0][1]) >= 0) stats.row_estimate = std::stoll(*rel[0][1]);
  stats.stats_as_of = rel[0][2];
  auto indexes = Fetch(
      "SELECT i.relname, ix.indisunique, ix.indisprimary, am.amname, "
      "array_to_string(ARRAY(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, "
      "ord) JOIN pg_catalog.pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum "
      "ORDER BY k.ord), E'\\x1f') "
      "FROM pg_catalog.pg_index ix JOIN pg_catalog.pg_class i ON i.oid = ix.indexrelid "
      "JOIN pg_catalog.pg_am am ON am.oid = i.relam WHERE ix.indrelid = $1::oid "
      "ORDER BY i.relname",
      {rel[0][0]});
  for (auto& row : indexes) {
    IndexInfo index{row[0].value_or(""), {}, row[1] == "t", row[2] == "t", row[3].value_or("")};
    std::string cols = row[4].value_or("");
    for (std::size_t start = 0; !cols.empty() && start <= cols.size();) {
      std::size_t end = cols.find('\x1f', start);
      index.columns.push_back(cols.substr(start, end - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
    stats.indexes.push_back(std::move(index));
  }
  auto columns = Fetch(
      "SELECT attname, n_distinct::text, null_frac::text, histogram_bounds::text FROM "
      "pg_catalog.pg_stats WHERE schemaname = $1 AND tablename = $2 ORDER BY attname",
      {target, table});
  for (auto& row : columns) {
    ColumnStats column;
    column.name = row[0].value_or("");
    if (row[1]) {
      double distinct = std::stod(*row[1]);
      column.distinct_is_ratio = distinct < 0;
      column.n_distinct = distinct < 0 ? -distinct : distinct;
    }
    if (row[2]) column.null_fraction = std::stod(*row[2]);
    if (row[3]) {
      auto bounds = ParsePgArrayText(*row[3]);
      if (!bounds.empty()) {
        column.min = bounds.front();
        column.max = bounds.back();
      }
    }
    stats.columns.push_back(std::move(column));
  }
  return stats;
}

}  // namespace dp
