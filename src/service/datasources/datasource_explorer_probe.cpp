// DatasourceExplorer::Probe — sql_probe (MCP spec §6.2.34, datasources.md §7D): the
// classifier gate before any lease, typed binds, limit/timeout clamps, the EXPLAIN plan
// captured before the run (and kept on a timeout), and the tempdb scratch check on a fresh
// private in-memory SQLite (our staging engine).
#include <algorithm>
#include <chrono>
#include <regex>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/connectors/named_parameters.hpp"
#include "datapipelines/connectors/schema_envelope.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/sql_statement_classifier.hpp"
#include "datapipelines/executor/tempdb.hpp"
#include "datapipelines/service/datasources/datasource_explorer.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/util/steady_now.hpp"
#include "datasource_rules.hpp"
#include "payload_budget.hpp"

namespace dp {
namespace {

using Clock = std::chrono::steady_clock;
using PlanRow = std::vector<std::pair<std::string, std::string>>;

// Only the referenced placeholders bind; a referenced name without a value is an argument
// fault, refused before anything is leased.
BindMap ReferencedBinds(const std::string& sql, Dialect dialect, const BindMap& supplied) {
  BindMap binds;
  std::vector<std::string> missing;
  for (const auto& name : NamedParameters::Parse(sql, dialect).DistinctNames()) {
    auto it = supplied.find(name);
    if (it == supplied.end()) {
      missing.push_back(name);
    } else {
      binds[name] = it->second;
    }
  }
  if (!missing.empty()) {
    std::string list;
    for (const auto& name : missing) list += (list.empty() ? ":" : ", :") + name;
    throw DomainError(errc::kRequestInvalid,
                      "Every :name placeholder needs an entry in parameters; missing " + list + ".",
                      Json{{"field", "parameters"}, {"missing", missing}});
  }
  return binds;
}

std::string Lookup(const PlanRow& row, const std::string& column) {
  for (const auto& [name, value] : row) {
    if (name == column) return value;
  }
  return "";
}

std::string EstimatedRowsIn(const std::string& text) {
  static const std::regex kRows(R"(rows=(\d+))");
  std::smatch match;
  return std::regex_search(text, match, kRows) ? match[1].str() : "";
}

// {scan?, estimated_rows?, raw} from the dialect's EXPLAIN rows.
Json PlanOf(Dialect dialect, const std::vector<PlanRow>& rows) {
  Json plan = Json::object();
  std::string raw, scan, estimate;
  for (const auto& row : rows) {
    std::string line;
    if (dialect == Dialect::kMysql) {
      for (const auto& [name, value] : row) line += (line.empty() ? "" : " ") + name + "=" + value;
    } else if (dialect == Dialect::kSqlite) {
      line = Lookup(row, "detail");
    } else if (dialect == Dialect::kDuckdb || dialect == Dialect::kLake) {
      line = Lookup(row, "explain_value");  // the box-drawing plan; explain_key names it
    } else {
      line = row.empty() ? "" : row.front().second;
    }
    raw += (raw.empty() ? "" : "\n") + line;
  }
  if (dialect == Dialect::kDuckdb || dialect == Dialect::kLake) {
    // §6.2.34: DuckDB's pruning marker "Scanning Files: x/y". Absent when no static file filter
    // applies (or a filter keeps every file and is optimized away): the fields stay absent, the
    // honest "no pruning information", never y/y.
    static const std::regex kFiles(R"(Scanning Files:\s*(\d+)/(\d+))");
    static const std::regex kOperator(R"(│\s*([A-Z][A-Z_]+)\s*│)");
    static const std::regex kRowsEstimate(R"(~(\d+)\s+[Rr]ows)");
    std::smatch match;
    if (std::regex_search(raw, match, kFiles)) {
      plan["partitions_scanned"] = std::stoll(match[1].str());
      plan["partitions_total"] = std::stoll(match[2].str());
      scan = "partition_prune " + match[1].str() + "/" + match[2].str();
    } else if (std::regex_search(raw, match, kOperator)) {
      scan = match[1].str();
    }
    if (std::regex_search(raw, match, kRowsEstimate)) estimate = match[1].str();
    if (!scan.empty()) plan["scan"] = scan;
    if (!estimate.empty() && estimate.size() < 19) plan["estimated_rows"] = std::stoll(estimate);
    plan["raw"] = raw;
    return plan;
  }
  if (!rows.empty()) {
    const PlanRow& first = rows.front();
    if (dialect == Dialect::kMysql) {
      scan = Lookup(first, "type") + " on " + Lookup(first, "table");
      estimate = Lookup(first, "rows");
    } else if (dialect == Dialect::kSqlite) {
      scan = Lookup(first, "detail");
    } else {
      std::string line = first.empty() ? "" : first.front().second;
      scan = line.substr(0, line.find("  ("));
      scan.erase(0, scan.find_first_not_of(" ->"));
      estimate = EstimatedRowsIn(line);
    }
  }
  if (!scan.empty()) plan["scan"] = scan;
  if (!estimate.empty() && estimate.size() < 19 &&
      estimate.find_first_not_of("0123456789") == std::string::npos) {
    plan["estimated_rows"] = std::stoll(estimate);
  }
  plan["raw"] = raw;
  return plan;
}

// EXPLAIN without executing; a plan the engine cannot give is simply absent (the run itself
// reports the statement's real error), but a lost connection is never swallowed.
std::optional<Json> Explain(Connector& connector, Connection& conn, const std::string& sql,
                            const BindMap& binds, int timeout_ms) {
  std::string prefix = connector.dialect() == Dialect::kSqlite ? "EXPLAIN QUERY PLAN " : "EXPLAIN ";
  QueryOptions options;
  options.timeout_ms = timeout_ms;
  options.max_rows = 1000;
  std::vector<PlanRow> rows;
  try {
    conn.Query(prefix + sql, binds, options, [&](const RowView& row) {
      PlanRow plan_row;
      for (std::size_t i = 0; i < row.size(); ++i) {
        plan_row.emplace_back(row.column(i).name, std::string(row.text(i).value_or("NULL")));
      }
      rows.push_back(std::move(plan_row));
      return true;
    });
  } catch (const DomainError& error) {
    if (error.code() == errc::kDatasourceUnreachable) throw;
    return std::nullopt;
  }
  return PlanOf(connector.dialect(), rows);
}

Json RunProbe(Connector& connector, Connection& conn, const std::string& sql, const BindMap& binds,
              int limit, int timeout_seconds, PayloadBudget budget) {
  int timeout_ms = timeout_seconds * 1000;
  std::optional<Json> plan = Explain(connector, conn, sql, binds, timeout_ms);
  QueryOptions options;
  options.timeout_ms = timeout_ms;
  options.max_rows = limit;
  Json rows = Json::array();
  Clock::time_point start = Clock::now();
  QueryResult result;
  try {
    result = conn.Query(sql, binds, options, [&](const RowView& row) {
      Json wire = row.ToWireObject();
      if (!budget.Admit(wire)) return false;  // the byte cap, like the row cap, stops the read
      rows.push_back(std::move(wire));
      return true;
    });
  } catch (const DomainError& error) {
    const Json& details = error.details();
    if (error.code() != errc::kNodeQueryFailed || !details.is_object() ||
        details.value("reason", std::string()) != "timeout") {
      throw;
    }
    // The plan that explains a timeout survives it.
    Json timeout{{"reason", "timeout"},
                 {"timeout_seconds", timeout_seconds},
                 {"wall_ms", MillisSince(start)}};
    if (plan) timeout["plan"] = *plan;
    throw DomainError(errc::kNodeQueryFailed,
                      "sql_probe stopped the statement at its " + std::to_string(timeout_seconds) +
                          " s timeout; details carry wall_ms and the plan captured before the run.",
                      timeout);
  }
  int64_t wall_ms = MillisSince(start);
  Json columns = Json::array();
  for (const auto& column : result.columns) columns.push_back(column.ToDescriptor());
  Json out{{"columns", columns},
           {"warnings", SchemaEnvelope::Warnings(result.columns)},
           {"rows", rows},
           {"row_count_returned", rows.size()},
           {"truncated", result.truncated},
           {"wall_ms", wall_ms}};
  budget.Report(out);
  if (plan) out["plan"] = *plan;
  return out;
}

std::optional<std::string> MissingTable(const DomainError& error) {
  std::string text = error.details().is_object()
                         ? error.details().value("driver_message", std::string(error.what()))
                         : std::string(error.what());
  static const std::regex kMissing(R"(no such table: ([^\s,;]+))");
  std::smatch match;
  if (!std::regex_search(text, match, kMissing)) return std::nullopt;
  std::string table = match[1].str();
  if (table.rfind("main.", 0) == 0) table = table.substr(5);
  return table;
}

}  // namespace

Json DatasourceExplorer::Probe(const Principal& principal, const ProbeRequest& request) {
  EnforceAccess(principal, Operation::kSqlProbe);
  // The classifier runs before anything is looked up or leased (§6.2.34 argument faults).
  SqlStatementVerdict verdict = SqlStatementClassifier::Classify(request.sql);
  if (!verdict.admitted) {
    Json details{{"field", "sql"}, {"reason", verdict.reason}};
    if (!verdict.refused_token.empty()) details["refused_token"] = verdict.refused_token;
    throw DomainError(errc::kRequestInvalid, "sql_probe refused the statement: " + verdict.reason,
                      details);
  }
  std::optional<UserConcurrency::Permit> permit;
  if (options_.expensive) permit.emplace(options_.expensive->Acquire(principal.user_id));
  if (request.datasource == DatasourceService::kTempdb) return ScratchProbe(request);
  DatasourceRecord record = registry_.RequireVisible(principal, request.datasource);
  BindMap binds =
      ReferencedBinds(request.sql, ParseDialectOrThrow(record.dialect), request.parameters);
  int limit = std::clamp(request.limit, 1, options_.max_probe_rows);
  int timeout = std::clamp(request.timeout_seconds, 1, options_.max_probe_timeout_seconds);
  auto connector = registry_.ProbeConnectorFor(record);
  try {
    auto lease = connector->Acquire();
    return RunProbe(*connector, *lease, request.sql, binds, limit, timeout,
                    PayloadBudget(options_.max_cell_bytes, options_.max_payload_bytes));
  } catch (const DomainError& error) {
    throw datasource_rules::Translate(error, record.name, connector->config());
  }
}

Json DatasourceExplorer::ScratchProbe(const ProbeRequest& request) {
  BindMap binds = ReferencedBinds(request.sql, Dialect::kSqlite, request.parameters);
  int limit = std::clamp(request.limit, 1, options_.max_probe_rows);
  int timeout = std::clamp(request.timeout_seconds, 1, options_.max_probe_timeout_seconds);
  // A fresh, empty Tempdb — the executor's own engine and mode, nothing staged to read. The
  // connector supplies only the dialect traits (EXPLAIN prefix, plan shape); it opens nothing.
  ConnectorConfig config;
  config.dialect = Dialect::kSqlite;
  config.sqlite_path = ":memory:";
  config.pool.max_size = 1;
  auto connector = MakeConnector(config);
  Tempdb scratch;
  Json payload{{"check", "syntax_and_names"}, {"engine", "sqlite"}};
  Clock::time_point start = Clock::now();
  try {
    Json probe;
    scratch.WithSession([&](Connection& conn) {
      probe = RunProbe(*connector, conn, request.sql, binds, limit, timeout,
                       PayloadBudget(options_.max_cell_bytes, options_.max_payload_bytes));
    });
    payload["validation_status"] = "executed";
    payload["parsed"] = true;
    for (auto& [key, value] : probe.items()) payload[key] = value;
    payload["note"] =
        "The statement ran on an empty scratch tempdb: this validates it as written, not other "
        "parameter values or the real staged inputs.";
    return payload;
  } catch (const DomainError& error) {
    auto missing = MissingTable(error);
    if (!missing) {
      throw DomainError(errc::kNodeQueryFailed,
                        std::string("tempdb scratch check failed: ") + error.what(),
                        error.details());
    }
    payload["validation_status"] = "incomplete";
    payload["parsed"] = nullptr;
    payload["missing_table"] = *missing;
    payload["wall_ms"] = MillisSince(start);
    payload["note"] =
        "The scratch tempdb stopped at the first staged table it could not find; nothing after "
        "that point was checked. Restate the suspect construct over typed, aliased VALUES inputs "
        "so it executes here, or run the pipeline (pipelines_execute) with its real staged "
        "inputs.";
    return payload;
  }
}

}  // namespace dp
