#include "datapipelines/executor/pipeline_executor.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/executor/caller_result_sink.hpp"
#include "datapipelines/executor/dag_scheduler.hpp"
#include "datapipelines/executor/node_runner.hpp"
#include "datapipelines/executor/row_sink.hpp"
#include "datapipelines/util/clock.hpp"

namespace dp {
namespace {

// Aborts the execution when its deadline passes; stopped (and joined) when the run ends first.
class ExecutionDeadline {
 public:
  ExecutionDeadline(ExecutionCancellation& cancellation, std::chrono::seconds budget)
      : thread_([this, &cancellation, budget] {
          std::unique_lock lock(mutex_);
          if (!done_cv_.wait_for(lock, budget, [this] { return done_; })) {
            cancellation.Abort({AbortKind::kTimeout,
                                "The execution exceeded datapipelines.executor."
                                "execution-timeout-seconds (" +
                                    std::to_string(budget.count()) + " s)."});
          }
        }) {}
  ~ExecutionDeadline() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    done_cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  std::thread thread_;
};

// One node's record while the execution runs (dag-executor §7).
struct NodeRecord {
  std::string status = "ABORTED";  // never started unless set otherwise
  int64_t started_at_ms = 0;
  int64_t completed_at_ms = 0;
  int64_t rows_out = -1;
  Json stats = Json::object();
  std::string error_code;
  std::string error_message;
  NodeTrace trace;
};

Json NodeStats(const PipelineNode& node, const NodeRecord& r) {
  Json s{{"node_id", node.id},
         {"type", node.type_name},
         {"status", r.status},
         {"started_at", r.started_at_ms ? Json(FormatIso8601Ms(r.started_at_ms)) : Json()},
         {"completed_at", r.completed_at_ms ? Json(FormatIso8601Ms(r.completed_at_ms)) : Json()},
         {"duration_ms", r.completed_at_ms ? r.completed_at_ms - r.started_at_ms : 0},
         {"rows_out", r.status == "SUCCESS" ? r.rows_out : -1},
         {"bytes_out", -1}};
  for (auto it = r.stats.begin(); it != r.stats.end(); ++it) s[it.key()] = it.value();
  if (!r.error_code.empty()) {
    s["error_code"] = r.error_code;
    s["error_message"] = r.error_message;
  }
  return s;
}

// The §6.2.14 failure record of the node that failed.
Json FailureRecord(const PipelineNode& node, const NodeRecord& r, const DomainError& error,
                   const RunRequest& request, bool structured) {
  Json record = error.ToJson();
  record["correlation_id"] = request.correlation_id;
  record["execution_id"] = request.execution_id;
  record["failed_node_id"] = node.id;
  Json where{{"id", node.id}, {"type", node.type_name}};
  if (!r.trace.datasource.empty()) where["datasource"] = r.trace.datasource;
  if (!r.trace.dialect.empty()) where["dialect"] = r.trace.dialect;
  if (!r.trace.template_id.empty()) {
    where["template"] = r.trace.template_id;
    where["template_version"] = r.trace.template_version;
  }
  if (node.kind) where["kind"] = *node.kind;
  record["node"] = std::move(where);
  if (structured) return record;
  if (!r.trace.sql.empty()) record["sql"] = r.trace.sql;
  // The cause chain, outermost first: the root cause (the driver's own words) is LAST.
  Json chain = Json::array();
  const Json& details = error.details();
  if (details.is_object()) {
    const Json& cause = details.contains("cause") ? details["cause"] : details;
    if (cause.is_object() && cause.contains("driver_message")) {
      Json root{{"class", "driver"}, {"message", cause["driver_message"]}};
      if (cause.contains("sqlstate")) root["sqlstate"] = cause["sqlstate"];
      chain.push_back(std::move(root));
    }
  }
  record["exception"] = {{"class", std::string(error.code().code)},
                         {"message", error.what()},
                         {"caused_by", std::move(chain)}};
  return record;
}

DomainError AsDomainError(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const DomainError& error) {
    return error;
  } catch (const std::exception& error) {
    return DomainError(errc::kExecutionAborted,
                       std::string("Unexpected executor error: ") + error.what());
  }
}

}  // namespace

PipelineExecutor::PipelineExecutor(ExecutionEnvironment& environment, ResultStore& results,
                                   ExecutorOptions options)
    : environment_(environment), results_(results), options_(options) {}

// The execution id itself: each result store adds its own namespace (Redis: dp:result:…).
std::string PipelineExecutor::ResultKey(const std::string& execution_id) { return execution_id; }

ExecutionOutcome PipelineExecutor::Run(const PipelineBody& body, ExecutionContext& context,
                                       ExecutionCancellation& cancellation,
                                       const RunRequest& request) {
  const int64_t started = NowMs();
  ExecutionOutcome outcome;
  TempdbOptions tempdb_options;
  tempdb_options.max_memory_bytes = options_.tempdb_max_memory_bytes;
  if (body.settings.contains("tempdb")) {
    // The validator admitted the engine: SQLITE (H2 its alias) or DUCKDB.
    if (body.settings["tempdb"].value("engine", "") == "DUCKDB") {
      tempdb_options.engine = TempdbEngine::kDuckdb;
    }
    const Json config = body.settings["tempdb"].value("config", Json::object());
    if (config.contains("max_memory_mb") && config["max_memory_mb"].is_number_integer()) {
      tempdb_options.max_memory_bytes = std::min<int64_t>(
          tempdb_options.max_memory_bytes, config["max_memory_mb"].get<int64_t>() * 1024 * 1024);
    }
  }
  std::vector<NodeRecord> records(body.nodes.size());
  std::exception_ptr first_failure;
  std::size_t failed_index = 0;
  std::optional<CallerResultSink> stored_caller;
  {
    ExecutionDeadline deadline(cancellation,
                               std::chrono::seconds(options_.execution_timeout_seconds));
    Tempdb tempdb(tempdb_options);
    RowSink* caller = request.direct_sink;
    if (!caller) {
      stored_caller.emplace(results_, ResultKey(request.execution_id), request.result_ttl,
                            options_.result_max_bytes);
      caller = &*stored_caller;
    }
    NodeRunnerOptions runner_options;
    runner_options.node_timeout_seconds = options_.node_timeout_seconds;
    runner_options.calculators = request.calculators;
    NodeRunner runner(environment_, context, tempdb, *caller, cancellation, runner_options);
    DagShape shape;
    for (const auto& node : body.nodes) {
      std::vector<std::size_t> parents;
      for (const auto& dep : node.depends_on) {
        for (std::size_t j = 0; j < body.nodes.size(); ++j) {
          if (body.nodes[j].id == dep) parents.push_back(j);
        }
      }
      shape.parents.push_back(std::move(parents));
    }
    std::mutex failure_mutex;
    std::atomic<int64_t> finished{0};
    const auto total = static_cast<int64_t>(body.nodes.size());
    std::mutex report_mutex;  // progress must increase notification by notification
    auto report = [&](std::size_t i) {
      if (!request.on_node_finished) return;
      std::lock_guard lock(report_mutex);
      request.on_node_finished(body.nodes[i].id, records[i].status, ++finished, total);
    };
    auto emit = [&](const std::string& type, Json data) {
      if (request.on_event) request.on_event(type, std::move(data));
    };
    auto run = [&](std::size_t i) {
      NodeRecord& r = records[i];
      r.started_at_ms = NowMs();
      emit("node_started", {{"execution_id", request.execution_id},
                            {"node_id", body.nodes[i].id},
                            {"started_at", FormatIso8601Ms(r.started_at_ms)},
                            {"attempt", 1}});
      try {
        NodeResult result = runner.Run(body.nodes[i], r.trace);
        r.completed_at_ms = NowMs();
        r.rows_out = result.rows_out;
        r.stats = std::move(result.stats);
        r.status = "SUCCESS";
        emit("node_completed", NodeStats(body.nodes[i], r));
        report(i);
      } catch (const std::exception& error) {
        r.completed_at_ms = 0;
        const auto* domain = dynamic_cast<const DomainError*>(&error);
        r.error_code = domain ? std::string(domain->code().code) : "pipeline.execution.aborted";
        r.error_message = error.what();
        // A statement stopped because the execution was already ending did not fail on its
        // own merits: ABORTED, with what it hit recorded (dag-executor §7.2).
        r.status = cancellation.aborted() ? "ABORTED" : "FAILED";
        std::lock_guard lock(failure_mutex);
        if (r.status == "FAILED" && !first_failure) {
          first_failure = std::current_exception();
          failed_index = i;
        }
        if (r.status == "FAILED") emit("node_failed", NodeStats(body.nodes[i], r));
        report(i);
        throw;
      }
    };
    auto on_failure = [&](std::size_t i) {
      cancellation.Abort({AbortKind::kSiblingFailed,
                          "Node '" + body.nodes[i].id + "' failed; the execution stops."});
    };
    DagScheduler::Run(shape, DagSchedulerOptions{options_.max_parallel_nodes}, cancellation, run,
                      on_failure);
  }
  for (std::size_t i = 0; i < body.nodes.size(); ++i) {
    outcome.node_stats.push_back(NodeStats(body.nodes[i], records[i]));
  }
  outcome.duration_ms = NowMs() - started;
  auto reason = cancellation.reason();
  if (first_failure) {
    DomainError error = AsDomainError(first_failure);
    outcome.status = "FAILED";
    outcome.failed_node_id = body.nodes[failed_index].id;
    outcome.error = FailureRecord(body.nodes[failed_index], records[failed_index], error, request,
                                  options_.structured_errors);
  } else if (reason && reason->kind != AbortKind::kSiblingFailed) {
    outcome.status = "ABORTED";
    outcome.abort_reason = reason->message;
    const ErrorCode code =
        reason->kind == AbortKind::kTimeout ? errc::kExecutionTimeout : errc::kExecutionAborted;
    outcome.error = {{"code", std::string(code.code)},
                     {"message", reason->message},
                     {"correlation_id", request.correlation_id},
                     {"execution_id", request.execution_id}};
  } else {
    outcome.status = "SUCCESS";
    if (stored_caller && !stored_caller->schema().is_null() && !stored_caller->schema().empty()) {
      outcome.caller = CallerResult{ResultKey(request.execution_id), stored_caller->schema(),
                                    stored_caller->rows()};
    }
  }
  return outcome;
}

}  // namespace dp
