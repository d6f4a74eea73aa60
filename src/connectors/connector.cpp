#include "datapipelines/connectors/connector.hpp"

#include "datapipelines/connectors/sql_quoting.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/util/clock.hpp"

namespace dp {

Json ConnectionTestResult::ToJson() const {
  Json out{{"connected", connected}};
  if (connected) out["server_version"] = server_version;
  out["tested_at"] = tested_at;
  if (connected) {
    out["latency_ms"] = latency_ms;
  } else {
    out["error"] = error;
    out["error_class"] = error_class;
  }
  return out;
}

Connector::Connector(ConnectorConfig config) : config_(std::move(config)) {}

Connector::~Connector() {
  if (pool_) pool_->Close();
}

void Connector::InitPool() {
  pool_ = ConnectionPool::Create(config_.pool, [this] {
    auto conn = Open();
    conn->set_default_timeout_ms(config_.query_timeout_seconds * 1000);
    return conn;
  });
}

std::string Connector::QuoteIdentifier(std::string_view name) const {
  if (name.empty() || name.find('\0') != std::string_view::npos) {
    throw DomainError(errc::kRequestInvalid, name.empty()
                                                 ? "an identifier may not be blank"
                                                 : "an identifier may not contain a NUL character");
  }
  return DoubleQuoted(name);
}

std::string Connector::QuoteQualified(const std::vector<std::string>& parts) const {
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out.push_back('.');
    out += QuoteIdentifier(part);
  }
  return out;
}

std::string Connector::LimitClause(int64_t rows) const {
  return " LIMIT " + std::to_string(rows < 0 ? 0 : rows);
}

ConnectionPool::Lease Connector::Acquire() { return pool_->Acquire(); }

ConnectionTestResult Connector::Test() {
  ConnectionTestResult result;
  result.tested_at_ms = NowMs();
  result.tested_at = FormatIso8601Ms(result.tested_at_ms);
  int64_t start = NowMs();
  try {
    auto conn = Open();
    result.server_version = conn->ServerVersion();
    result.connected = true;
    result.latency_ms = NowMs() - start;
  } catch (const DomainError& error) {
    result.error = error.what();
    result.error_class = std::string(error.code().code);
    result.latency_ms = NowMs() - start;  // how long the failure took (stored, not answered)
  }
  return result;
}

QueryResult Connector::Query(std::string_view sql, const BindMap& binds,
                             const QueryOptions& options, const RowCallback& on_row,
                             const ColumnsCallback& on_columns) {
  bool delivered = false;  // once the caller has seen columns or rows, a retry would repeat them
  const RowCallback noted_row = [&](const RowView& row) {
    delivered = true;
    return on_row(row);
  };
  ColumnsCallback noted_columns;
  if (on_columns) {
    noted_columns = [&](const std::vector<ColumnSchema>& columns) {
      delivered = true;
      on_columns(columns);
    };
  }
  for (int attempt = 0;; ++attempt) {
    auto lease = Acquire();
    const bool reused = lease.reused();
    try {
      return lease->Query(sql, binds, options, noted_row, noted_columns);
    } catch (const DomainError& error) {
      if (attempt > 0 || !reused || delivered || error.code() != errc::kDatasourceUnreachable) {
        throw;
      }
      lease.Discard();
    }
  }
}

}  // namespace dp
