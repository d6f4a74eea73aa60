#pragma once
// Runs one node of an execution (dag-executor §6; pipeline-contract §8): SQL nodes render their
// pinned template against the Context, bind every `:name` with its Context type, and run on
// their source — a DQL node's rows streamed into the caller result, a tempdb table or a
// write-back target; DML/DDL report affected rows. CALCULATOR nodes evaluate their catalog
// function (or are skipped when the caller supplied their keys); PIPELINE nodes run a child
// execution whose caller rows land per the node's output block.
#include <chrono>
#include <cstdint>
#include <string>

#include "datapipelines/calculators/calculator_context.hpp"
#include "datapipelines/executor/execution_cancellation.hpp"
#include "datapipelines/executor/execution_context.hpp"
#include "datapipelines/executor/execution_environment.hpp"
#include "datapipelines/executor/row_sink.hpp"
#include "datapipelines/executor/tempdb.hpp"
#include "datapipelines/pipeline/pipeline_body.hpp"

namespace dp {

class CancelToken;
class NodeDeadline;

// What the failure record names about the node (spec §6.2.14): filled as the node progresses,
// so a failure anywhere reports how far it got.
struct NodeTrace {
  std::string datasource;
  std::string dialect;
  std::string template_id;
  int64_t template_version = 0;
  std::string sql;  // rendered, in its :name form — never with bound values
};

struct NodeResult {
  int64_t rows_out = 0;
  Json stats = Json::object();  // node-type specific stats members (context_key, …)
};

struct NodeRunnerOptions {
  int node_timeout_seconds = 300;  // datapipelines.executor.node-timeout-seconds
  CalculatorEnvironment calculators;
};

class NodeRunner {
 public:
  NodeRunner(ExecutionEnvironment& environment, ExecutionContext& context, Tempdb& tempdb,
             RowSink& caller, ExecutionCancellation& cancellation,
             const NodeRunnerOptions& options);

  NodeResult Run(const PipelineNode& node, NodeTrace& trace);

 private:
  NodeResult RunSql(const PipelineNode& node, NodeTrace& trace);
  NodeResult RunStatement(const PipelineNode& node, NodeTrace& trace, CancelToken& token,
                          NodeDeadline& deadline);
  NodeResult RunCalculator(const PipelineNode& node);
  NodeResult RunChild(const PipelineNode& node);
  // The sink a DQL (or PIPELINE) node's output block names; `owned` keeps a per-node sink alive.
  RowSink* SinkFor(const PipelineNode& node, std::unique_ptr<RowSink>& owned, CancelToken* cancel);
  int64_t TimeoutSeconds(const PipelineNode& node) const;

  ExecutionEnvironment& environment_;
  ExecutionContext& context_;
  Tempdb& tempdb_;
  RowSink& caller_;
  ExecutionCancellation& cancellation_;
  const NodeRunnerOptions& options_;
};

}  // namespace dp
