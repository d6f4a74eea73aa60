// Executions, their events, instance heartbeats and check runs (migration 0005), written once
// in the portable subset over the metadata database's connection. Each state change is one
// statement guarded by the state it expects (compare-and-swap), because the adapters expose no
// transactions.
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "datapipelines/store/execution_store.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/sql_executor.hpp"
#include "sql_cells.hpp"

namespace dp {

using sql_cells::Int;
using sql_cells::NullIfEmpty;
using sql_cells::NullIfZero;
using sql_cells::Text;
namespace {

constexpr const char* kExecutionColumns =
    "id, workspace_id, pipeline_id, pipeline_name, pipeline_version, version_status, status, "
    "triggered_by, key_id, via, correlation_id, instance_id, parent_execution_id, "
    "parent_node_id, root_execution_id, idempotency_key, request_hash, parameters_json, "
    "node_stats_json, error_json, result_json, abort_reason, started_at_ms, finished_at_ms";
constexpr const char* kEventColumns = "execution_id, seq, type, data_json, at_ms";
constexpr const char* kCheckRunColumns =
    "id, pipeline_id, version, check_id, name, expected_json, observed_json, verdict, message, "
    "run_by, via, ran_at_ms, parameters_json, correlation_id, duration_ms";

// NULL (or unparsable text) reads back as JSON null, so an absent error stays absent.
Json JsonOrNull(const SqlRow& row, std::size_t i) {
  const auto& cell = row.at(i);
  if (!cell) return Json();
  Json value = Json::parse(*cell, nullptr, /*allow_exceptions=*/false);
  return value.is_discarded() ? Json() : value;
}

SqlValue NullIfNull(const Json& value) {
  if (value.is_null()) return nullptr;
  return value.dump();
}

ExecutionRecord ToExecution(const SqlRow& r) {
  ExecutionRecord e;
  e.id = Text(r, 0);
  e.workspace_id = Text(r, 1);
  e.pipeline_id = Text(r, 2);
  e.pipeline_name = Text(r, 3);
  e.pipeline_version = static_cast<int>(Int(r, 4));
  e.version_status = Text(r, 5);
  e.status = Text(r, 6);
  e.triggered_by = Text(r, 7);
  e.key_id = Text(r, 8);
  e.via = Text(r, 9);
  e.correlation_id = Text(r, 10);
  e.instance_id = Text(r, 11);
  e.parent_execution_id = Text(r, 12);
  e.parent_node_id = Text(r, 13);
  e.root_execution_id = Text(r, 14);
  e.idempotency_key = Text(r, 15);
  e.request_hash = Text(r, 16);
  e.parameters = JsonOrNull(r, 17);
  if (!e.parameters.is_object()) e.parameters = Json::object();
  e.node_stats = JsonOrNull(r, 18);
  if (!e.node_stats.is_array()) e.node_stats = Json::array();
  e.error = JsonOrNull(r, 19);
  e.result = JsonOrNull(r, 20);
  e.abort_reason = Text(r, 21);
  e.started_at_ms = Int(r, 22);
  e.finished_at_ms = Int(r, 23);
  return e;
}

ExecutionEvent ToEvent(const SqlRow& r) {
  ExecutionEvent e;
  e.execution_id = Text(r, 0);
  e.seq = Int(r, 1);
  e.type = Text(r, 2);
  e.data = JsonOrNull(r, 3);
  e.at_ms = Int(r, 4);
  return e;
}

CheckRunRecord ToCheckRun(const SqlRow& r) {
  CheckRunRecord c;
  c.id = Text(r, 0);
  c.pipeline_id = Text(r, 1);
  c.version = static_cast<int>(Int(r, 2));
  c.check_id = Text(r, 3);
  c.name = Text(r, 4);
  c.expected = JsonOrNull(r, 5);
  c.observed = JsonOrNull(r, 6);
  c.verdict = Text(r, 7);
  c.message = Text(r, 8);
  c.run_by = Text(r, 9);
  c.via = Text(r, 10);
  c.ran_at_ms = Int(r, 11);
  c.parameters = JsonOrNull(r, 12);
  if (!c.parameters.is_object()) c.parameters = Json::object();
  c.correlation_id = Text(r, 13);
  c.duration_ms = Int(r, 14);
  return c;
}

// The WHERE clause of a history query with its parameters appended to `params`; shared by
// List and Count so the page and its total can never disagree about what matched.
std::string Where(const ExecutionQuery& q, std::vector<SqlValue>& params) {
  std::string where;
  auto add = [&](const char* condition, SqlValue value) {
    params.push_back(std::move(value));
    where += where.empty() ? " WHERE " : " AND ";
    where += condition;
    where += " $" + std::to_string(params.size());
  };
  if (!q.workspace_id.empty()) add("workspace_id =", q.workspace_id);
  if (q.pipeline_id) add("pipeline_id =", *q.pipeline_id);
  if (q.status) add("status =", *q.status);
  if (q.triggered_by) add("triggered_by =", *q.triggered_by);
  if (q.started_after_ms) add("started_at_ms >", *q.started_after_ms);
  if (q.started_before_ms) add("started_at_ms <", *q.started_before_ms);
  return where;
}

// The error an execution closed by a sweep carries, whichever sweep closed it.
std::string InstanceLostError() {
  return Json{{"code", "pipeline.execution.instance_lost"},
              {"message", "The server instance running this execution stopped before it finished."}}
      .dump();
}

class SqlExecutionStore : public ExecutionStore {
 public:
  explicit SqlExecutionStore(SqlExecutor& sql) : sql_(sql) {}

  void Insert(const ExecutionRecord& e) override {
    // The root defaults in the statement: the parent's root for a child (one lookup the
    // caller need not make), else the row's own id.
    sql_.Execute(std::string("INSERT INTO pipeline_executions (") + kExecutionColumns +
                     ") VALUES ($1, $2, $3, $4, $5, $6, 'RUNNING', $7, $8, $9, $10, $11, $12, "
                     "$13, COALESCE($14, (SELECT p.root_execution_id FROM pipeline_executions p "
                     "WHERE p.id = $12), $1), $15, $16, $17, $18, $19, $20, $21, $22, NULL)",
                 {e.id,
                  e.workspace_id,
                  e.pipeline_id,
                  e.pipeline_name,
                  int64_t{e.pipeline_version},
                  e.version_status,
                  e.triggered_by,
                  NullIfEmpty(e.key_id),
                  e.via,
                  NullIfEmpty(e.correlation_id),
                  e.instance_id,
                  NullIfEmpty(e.parent_execution_id),
                  NullIfEmpty(e.parent_node_id),
                  NullIfEmpty(e.root_execution_id),
                  NullIfEmpty(e.idempotency_key),
                  NullIfEmpty(e.request_hash),
                  e.parameters.is_null() ? std::string("{}") : e.parameters.dump(),
                  e.node_stats.is_null() ? std::string("[]") : e.node_stats.dump(),
                  NullIfNull(e.error),
                  NullIfNull(e.result),
                  NullIfEmpty(e.abort_reason),
                  e.started_at_ms});
  }

  bool Finish(const ExecutionRecord& e) override {
    if (e.status != "SUCCESS" && e.status != "FAILED" && e.status != "ABORTED") {
      throw std::invalid_argument("Finish needs a terminal status, not '" + e.status + "'");
    }
    if (e.finished_at_ms == 0) throw std::invalid_argument("Finish needs finished_at_ms");
    return sql_.Execute(
               "UPDATE pipeline_executions SET status = $2, parameters_json = $3, "
               "node_stats_json = $4, error_json = $5, result_json = $6, abort_reason = $7, "
               "finished_at_ms = $8 WHERE id = $1 AND status = 'RUNNING'",
               {e.id, e.status, e.parameters.is_null() ? std::string("{}") : e.parameters.dump(),
                e.node_stats.is_null() ? std::string("[]") : e.node_stats.dump(),
                NullIfNull(e.error), NullIfNull(e.result), NullIfEmpty(e.abort_reason),
                e.finished_at_ms}) == 1;
  }

  void UpdateNodeStats(const std::string& id, const Json& node_stats) override {
    sql_.Execute(
        "UPDATE pipeline_executions SET node_stats_json = $2 WHERE id = $1 AND status = "
        "'RUNNING'",
        {id, node_stats.is_null() ? std::string("[]") : node_stats.dump()});
  }

  std::optional<ExecutionRecord> Find(const std::string& id) override {
    auto rows = sql_.Query(
        std::string("SELECT ") + kExecutionColumns + " FROM pipeline_executions WHERE id = $1",
        {id});
    if (rows.empty()) return std::nullopt;
    return ToExecution(rows.front());
  }

  std::vector<ExecutionRecord> List(const ExecutionQuery& q) override {
    if (q.limit < 0 || q.offset < 0) {
      throw std::invalid_argument("an execution page needs a non-negative limit and offset");
    }
    std::vector<SqlValue> params;
    // Built first: the page's placeholder numbers follow the filters' parameters.
    std::string where = Where(q, params);
    // The casts: PostgreSQL reads an untyped LIMIT parameter as text.
    std::string sql = std::string("SELECT ") + kExecutionColumns + " FROM pipeline_executions" +
                      where + " ORDER BY started_at_ms DESC, id DESC LIMIT CAST($" +
                      std::to_string(params.size() + 1) + " AS BIGINT) OFFSET CAST($" +
                      std::to_string(params.size() + 2) + " AS BIGINT)";
    params.push_back(int64_t{q.limit});
    params.push_back(int64_t{q.offset});
    std::vector<ExecutionRecord> out;
    for (const auto& row : sql_.Query(sql, params)) out.push_back(ToExecution(row));
    return out;
  }

  int64_t Count(const ExecutionQuery& q) override {
    std::vector<SqlValue> params;
    std::string where = Where(q, params);  // before the call: it fills `params`
    auto rows = sql_.Query("SELECT COUNT(*) FROM pipeline_executions" + where, params);
    return rows.empty() ? 0 : Int(rows.front(), 0);
  }

  std::optional<ExecutionRecord> FindByIdempotencyKey(const std::string& workspace_id,
                                                      const std::string& user_id,
                                                      const std::string& key,
                                                      int64_t not_before_ms) override {
    auto rows = sql_.Query(std::string("SELECT ") + kExecutionColumns +
                               " FROM pipeline_executions WHERE workspace_id = $1 AND "
                               "triggered_by = $2 AND idempotency_key = $3 AND started_at_ms >= "
                               "$4 ORDER BY started_at_ms DESC, id DESC LIMIT 1",
                           {workspace_id, user_id, key, not_before_ms});
    if (rows.empty()) return std::nullopt;
    return ToExecution(rows.front());
  }

  void Heartbeat(const std::string& instance_id, int64_t at_ms) override {
    sql_.Execute(
        "INSERT INTO server_instances (id, heartbeat_at_ms) VALUES ($1, $2) ON CONFLICT (id) "
        "DO UPDATE SET heartbeat_at_ms = excluded.heartbeat_at_ms",
        {instance_id, at_ms});
  }

  int64_t AbortOrphans(const std::string& live_instance_id, int64_t stale_before_ms,
                       const std::string& reason, int64_t at_ms) override {
    // One statement, guarded by status = 'RUNNING', so a row its instance finishes meanwhile
    // keeps its real outcome and two instances sweeping at once abort each row once.
    return sql_.Execute(
        "UPDATE pipeline_executions SET status = 'ABORTED', abort_reason = $3, error_json = $4, "
        "finished_at_ms = $5 WHERE status = 'RUNNING' AND instance_id <> $1 AND NOT EXISTS "
        "(SELECT 1 FROM server_instances s WHERE s.id = pipeline_executions.instance_id AND "
        "s.heartbeat_at_ms >= $2)",
        {live_instance_id, stale_before_ms, reason, InstanceLostError(), at_ms});
  }

  std::vector<std::string> RunningOf(const std::string& instance_id,
                                     int64_t started_before_ms) override {
    std::vector<std::string> ids;
    for (const auto& row : sql_.Query(
             "SELECT id FROM pipeline_executions WHERE instance_id = $1 AND status = 'RUNNING' "
             "AND started_at_ms < $2",
             {instance_id, started_before_ms})) {
      ids.push_back(row.at(0).value_or(""));
    }
    return ids;
  }

  bool AbortLost(const std::string& id, const std::string& reason, int64_t at_ms) override {
    return sql_.Execute(
               "UPDATE pipeline_executions SET status = 'ABORTED', abort_reason = $2, "
               "error_json = $3, finished_at_ms = $4 WHERE id = $1 AND status = 'RUNNING'",
               {id, reason, InstanceLostError(), at_ms}) == 1;
  }

  bool RequestCancel(const std::string& id, const std::string& reason) override {
    return sql_.Execute(
               "UPDATE pipeline_executions SET cancel_requested = $2 WHERE id = $1 AND status = "
               "'RUNNING'",
               {id, reason}) == 1;
  }

  std::vector<std::pair<std::string, std::string>> CancelRequests(
      const std::string& instance_id) override {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& row : sql_.Query(
             "SELECT id, cancel_requested FROM pipeline_executions WHERE instance_id = $1 AND "
             "status = 'RUNNING' AND cancel_requested IS NOT NULL",
             {instance_id})) {
      out.emplace_back(row.at(0).value_or(""), row.at(1).value_or(""));
    }
    return out;
  }

  void AppendEvent(const ExecutionEvent& e) override {
    sql_.Execute(std::string("INSERT INTO execution_events (") + kEventColumns +
                     ") VALUES ($1, $2, $3, $4, $5)",
                 {e.execution_id, e.seq, e.type,
                  e.data.is_null() ? std::string("{}") : e.data.dump(), e.at_ms});
  }

  std::vector<ExecutionEvent> ListEvents(const std::string& execution_id) override {
    auto rows = sql_.Query(std::string("SELECT ") + kEventColumns +
                               " FROM execution_events WHERE execution_id = $1 ORDER BY seq",
                           {execution_id});
    std::vector<ExecutionEvent> out;
    for (const auto& row : rows) out.push_back(ToEvent(row));
    return out;
  }

  void AppendCheckRun(const CheckRunRecord& c) override {
    sql_.Execute(
        std::string("INSERT INTO pipeline_check_runs (") + kCheckRunColumns +
            ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, "
            "$15)",
        {c.id, c.pipeline_id, int64_t{c.version}, c.check_id, c.name, NullIfNull(c.expected),
         NullIfNull(c.observed), c.verdict, NullIfEmpty(c.message), NullIfEmpty(c.run_by), c.via,
         c.ran_at_ms, c.parameters.is_null() ? std::string("{}") : c.parameters.dump(),
         NullIfEmpty(c.correlation_id), NullIfZero(c.duration_ms)});
  }

  std::vector<CheckRunRecord> LatestCheckRuns(const std::string& pipeline_id,
                                              int version) override {
    // NOT EXISTS rather than DISTINCT ON (PostgreSQL only): a run is the latest when no run
    // of the same check is newer; the id breaks a same-millisecond tie deterministically.
    std::string columns;
    for (std::string_view rest = kCheckRunColumns; !rest.empty();) {
      std::size_t comma = rest.find(", ");
      columns += (columns.empty() ? "r." : ", r.") + std::string(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 2);
    }
    auto rows = sql_.Query(
        "SELECT " + columns +
            " FROM pipeline_check_runs r WHERE r.pipeline_id = $1 AND r.version = $2 AND NOT "
            "EXISTS (SELECT 1 FROM pipeline_check_runs n WHERE n.pipeline_id = r.pipeline_id "
            "AND n.version = r.version AND n.check_id = r.check_id AND (n.ran_at_ms > "
            "r.ran_at_ms OR (n.ran_at_ms = r.ran_at_ms AND n.id > r.id))) ORDER BY r.check_id",
        {pipeline_id, int64_t{version}});
    std::vector<CheckRunRecord> out;
    for (const auto& row : rows) out.push_back(ToCheckRun(row));
    return out;
  }

 private:
  SqlExecutor& sql_;
};

}  // namespace

std::unique_ptr<ExecutionStore> OpenExecutionStore(MetadataStore& metadata) {
  return std::make_unique<SqlExecutionStore>(metadata);
}

}  // namespace dp
