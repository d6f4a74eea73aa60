#pragma once
// One execution of one pipeline version, end to end (dag-executor §5): a private tempdb, the
// caller result materialized (or delivered directly to a parent's sink), nodes scheduled by
// dependency with fail-fast, an execution deadline, and the outcome — status, node_stats, the
// failure record, the resolved Context — handed back for the service to persist.
#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "datapipelines/calculators/calculator_context.hpp"
#include "datapipelines/executor/execution_cancellation.hpp"
#include "datapipelines/executor/execution_context.hpp"
#include "datapipelines/executor/execution_environment.hpp"
#include "datapipelines/executor/tempdb.hpp"
#include "datapipelines/pipeline/pipeline_body.hpp"
#include "datapipelines/results/result_store.hpp"

namespace dp {

class RowSink;

struct ExecutorOptions {
  std::size_t max_parallel_nodes = 4;   // datapipelines.executor.max-parallel-nodes
  int node_timeout_seconds = 300;       // datapipelines.executor.node-timeout-seconds
  int execution_timeout_seconds = 600;  // datapipelines.executor.execution-timeout-seconds
  int64_t result_max_bytes = 100LL * 1024 * 1024;  // datapipelines.result.max-size-bytes
  int64_t tempdb_max_memory_bytes = 1024LL * 1024 * 1024;  // datapipelines.staging.max-memory-mb
  bool structured_errors = false;  // datapipelines.executions.error-detail=structured
};

struct RunRequest {
  std::string execution_id;
  std::string correlation_id;
  std::chrono::seconds result_ttl{300};
  RowSink* direct_sink = nullptr;  // a child execution's caller rows go to its parent
  // Called as each node ends (any thread): finished so far, of all nodes.
  std::function<void(const std::string& node_id, const std::string& status, int64_t finished,
                     int64_t total)>
      on_node_finished = nullptr;
  // The node events of rest-api §6.4 (node_started, node_completed, node_failed), any thread.
  std::function<void(const std::string& type, Json data)> on_event = nullptr;
  CalculatorEnvironment calculators;
};

struct CallerResult {
  std::string key;
  Json schema;  // the schema envelope
  int64_t total_rows = 0;
};

struct ExecutionOutcome {
  std::string status;  // SUCCESS | FAILED | ABORTED
  Json node_stats = Json::array();
  Json error;  // the failure record, null on success
  std::string failed_node_id;
  std::string abort_reason;
  std::optional<CallerResult> caller;
  int64_t duration_ms = 0;
};

class PipelineExecutor {
 public:
  PipelineExecutor(ExecutionEnvironment& environment, ResultStore& results,
                   ExecutorOptions options);

  // The key a caller result is stored under.
  static std::string ResultKey(const std::string& execution_id);

  ExecutionOutcome Run(const PipelineBody& body, ExecutionContext& context,
                       ExecutionCancellation& cancellation, const RunRequest& request);

 private:
  ExecutionEnvironment& environment_;
  ResultStore& results_;
  ExecutorOptions options_;
};

}  // namespace dp
