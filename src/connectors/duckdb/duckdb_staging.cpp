#include "datapipelines/connectors/duckdb/duckdb_staging.hpp"

#include <stdexcept>

#include "datapipelines/connectors/sql_quoting.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "duckdb_connection.hpp"
#include "duckdb_engine.hpp"

namespace dp {
namespace {

constexpr int kMaxDuckdbDecimal = 38;

ConnectorConfig StagingConfig(const DuckdbStaging::Limits& limits) {
  ConnectorConfig config;
  config.dialect = Dialect::kDuckdb;
  config.duckdb_path = ":memory:";
  config.readonly = false;
  config.duckdb_staging = true;
  config.duckdb_threads = limits.threads;
  // MiB granularity, at least one: DuckDB's limit covers its buffers, our budget the same.
  config.duckdb_memory_limit_mb =
      std::max<int64_t>(1, (limits.memory_limit_bytes + (1 << 20) - 1) >> 20);
  return config;
}

}  // namespace

struct DuckdbStaging::Appender::State {
  duckdb_connection connection = nullptr;
  duckdb_appender appender = nullptr;
  ~State() {
    if (appender) duckdb_appender_destroy(&appender);
    if (connection) duckdb_disconnect(&connection);
  }
  std::string Error() const {
    const char* text = duckdb_appender_error(appender);
    return text && *text ? text : "the DuckDB appender failed";
  }
};

DuckdbStaging::DuckdbStaging(const Limits& limits) : limits_(limits) {
  ConnectorConfig config = StagingConfig(limits);
  try {
    engine_ = DuckdbEngine::Open(config);
    setup_ = engine_->Connect(config);
    session_ = std::make_unique<DuckdbConnection>(config, engine_);
  } catch (const DomainError& error) {
    std::string reason = error.what();
    auto it = error.details().find("driver_message");
    if (it != error.details().end() && it->is_string()) reason = it->get<std::string>();
    throw std::runtime_error(reason);
  }
}

DuckdbStaging::~DuckdbStaging() {
  session_.reset();
  auto setup = static_cast<duckdb_connection>(setup_);
  if (setup) duckdb_disconnect(&setup);
}

std::string DuckdbStaging::ColumnType(const TypeMapping& mapping) {
  auto decimal = [&](int precision, int scale) {
    return "DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
  };
  switch (mapping.type) {
    case CanonicalType::kNull:
      return "VARCHAR";  // every value NULL; read back as STRING (DuckDB keeps no alias)
    case CanonicalType::kString:
      return "VARCHAR";
    case CanonicalType::kBoolean:
      return "BOOLEAN";
    case CanonicalType::kInteger:
      return "BIGINT";  // canonical INTEGER holds any int64 (read back as INTEGER)
    case CanonicalType::kBigInteger:
      return "HUGEINT";  // past int64 too (read back as BIGINTEGER)
    case CanonicalType::kDecimal:
      // Exact when the source said so (precision and scale), approximate (DOUBLE) otherwise.
      if (mapping.precision && mapping.scale && *mapping.precision >= 1 &&
          *mapping.precision <= kMaxDuckdbDecimal && *mapping.scale <= *mapping.precision) {
        return decimal(*mapping.precision, *mapping.scale);
      }
      return mapping.precision.value_or(15) <= 7 ? "FLOAT" : "DOUBLE";
    case CanonicalType::kBigDecimal:
      if (mapping.precision && *mapping.precision >= 1 && *mapping.precision <= kMaxDuckdbDecimal &&
          mapping.scale.value_or(0) <= *mapping.precision) {
        return decimal(*mapping.precision, mapping.scale.value_or(0));
      }
      return "VARCHAR";  // unbounded or past 38 digits: exact text, read back as STRING
    case CanonicalType::kBinary:
      return "BLOB";
    case CanonicalType::kDate:
      return "DATE";
    case CanonicalType::kTime:
      return "TIME";
    case CanonicalType::kTimestamp:
      return "TIMESTAMP";
  }
  return "VARCHAR";
}

std::string DuckdbStaging::CreateTableSql(const std::string& table,
                                          const std::vector<ColumnSchema>& columns) {
  std::string sql = "CREATE TABLE " + DoubleQuoted(table) + " (";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i) sql += ", ";
    sql += DoubleQuoted(columns[i].name) + " " + ColumnType(columns[i].mapping);
  }
  return sql + ")";
}

std::string DuckdbStaging::RunTrusted(const std::string& sql) {
  duckdb_result result;
  std::string message;
  if (duckdb_query(static_cast<duckdb_connection>(setup_), sql.c_str(), &result) != DuckDBSuccess) {
    const char* text = duckdb_result_error(&result);
    message = text ? text : "DuckDB statement failed";
  }
  duckdb_destroy_result(&result);
  return message;
}

Connection& DuckdbStaging::session() { return *session_; }

void DuckdbStaging::Interrupt() {
  session_->Cancel();
  duckdb_interrupt(static_cast<duckdb_connection>(setup_));
}

bool DuckdbStaging::HasTable(const std::string& table) {
  std::string sql =
      "SELECT count(*) FROM (SELECT table_name AS n FROM duckdb_tables() UNION ALL "
      "SELECT view_name FROM duckdb_views() WHERE NOT internal) WHERE lower(n) = lower(" +
      SingleQuoted(table) + ")";
  duckdb_result result;
  bool found = false;
  if (duckdb_query(static_cast<duckdb_connection>(setup_), sql.c_str(), &result) == DuckDBSuccess) {
    found = duckdb_row_count(&result) > 0 && duckdb_value_int64(&result, 0, 0) > 0;
  }
  duckdb_destroy_result(&result);
  return found;
}

int64_t DuckdbStaging::MemoryUsedBytes() {
  const char* sql =
      "SELECT CAST(COALESCE(sum(memory_usage_bytes), 0) AS BIGINT) FROM duckdb_memory()";
  duckdb_result result;
  int64_t used = 0;
  if (duckdb_query(static_cast<duckdb_connection>(setup_), sql, &result) == DuckDBSuccess &&
      duckdb_row_count(&result) > 0) {
    used = duckdb_value_int64(&result, 0, 0);
  }
  duckdb_destroy_result(&result);
  return used;
}

std::unique_ptr<DuckdbStaging::Appender> DuckdbStaging::OpenAppender(const std::string& table,
                                                                     std::string& error) {
  std::unique_ptr<Appender> out(new Appender());
  out->state_ = std::make_unique<Appender::State>();
  try {
    out->state_->connection = engine_->Connect(StagingConfig(limits_));
  } catch (const std::exception& e) {
    error = e.what();
    return nullptr;
  }
  if (duckdb_appender_create(out->state_->connection, nullptr, table.c_str(),
                             &out->state_->appender) != DuckDBSuccess) {
    error = out->state_->appender ? out->state_->Error() : "could not create the appender";
    return nullptr;
  }
  return out;
}

DuckdbStaging::Appender::~Appender() = default;

std::string DuckdbStaging::Appender::AppendRow(
    const std::vector<std::optional<std::string_view>>& cells, const std::vector<bool>& binary) {
  duckdb_appender appender = state_->appender;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    duckdb_state rc;
    if (!cells[i]) {
      rc = duckdb_append_null(appender);
    } else if (i < binary.size() && binary[i]) {
      rc = duckdb_append_blob(appender, cells[i]->data(), cells[i]->size());
    } else {
      rc = duckdb_append_varchar_length(appender, cells[i]->data(), cells[i]->size());
    }
    if (rc != DuckDBSuccess) return state_->Error();
  }
  if (duckdb_appender_end_row(appender) != DuckDBSuccess) return state_->Error();
  return "";
}

std::string DuckdbStaging::Appender::Flush() {
  if (duckdb_appender_flush(state_->appender) != DuckDBSuccess) return state_->Error();
  return "";
}

}  // namespace dp
