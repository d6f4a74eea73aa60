#pragma once
// Runs a DAG's nodes in dependency order, independent branches in parallel (dag-executor §5.2):
// the calling thread works too, and extra worker threads are started only while more nodes are
// ready than threads are busy, up to the execution's bound and a process-wide bound — so a
// one-node pipeline starts no thread, and a child execution waiting inside a node can never
// deadlock on a full pool (its own thread always makes progress). Fail-fast: the first failure
// stops scheduling and aborts the running siblings through the execution's cancellation.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace dp {

class ExecutionCancellation;

struct DagSchedulerOptions {
  std::size_t max_parallel_nodes = 4;  // per execution, the calling thread included
};

// The nodes' dependency lists as indexes into the node vector.
struct DagShape {
  std::vector<std::vector<std::size_t>> parents;
};

class DagScheduler {
 public:
  // Runs `run(i)` for every node once its parents succeeded. A throwing `run` fails the
  // execution: no further node starts, `on_failure` (called once, first failure only) aborts
  // the cancellation, and Run rethrows nothing — outcomes are the runner's to record.
  // Returns the indexes that never started.
  static std::vector<std::size_t> Run(const DagShape& shape, const DagSchedulerOptions& options,
                                      ExecutionCancellation& cancellation,
                                      const std::function<void(std::size_t)>& run,
                                      const std::function<void(std::size_t)>& on_failure);

  // The process-wide bound on extra worker threads (datapipelines.executor.max-threads).
  static void SetGlobalThreadLimit(std::size_t limit);
};

}  // namespace dp
