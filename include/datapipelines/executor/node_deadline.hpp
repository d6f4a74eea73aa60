#pragma once
// The node's wall-clock budget (pipeline-contract §4.11), RENDER through MATERIALIZE: when it
// passes, the node's token fires whatever the driver does, and the node fails as
// pipeline.node.timeout naming the phase the budget went in. One shared watchdog thread
// serves every deadline (no thread per node).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "datapipelines/connectors/pool/cancel_token.hpp"
#include "datapipelines/domain/domain_error.hpp"

namespace dp {

class NodeDeadline {
 public:
  NodeDeadline(CancelToken* token, int64_t timeout_seconds);
  ~NodeDeadline();
  NodeDeadline(const NodeDeadline&) = delete;
  NodeDeadline& operator=(const NodeDeadline&) = delete;

  // "render" until the statement starts, then "query", then "materialize".
  void Enter(const char* phase) { phase_ = phase; }
  bool fired() const { return fired_; }
  int64_t elapsed_ms() const;
  DomainError Error(const std::string& node_id) const;

 private:
  int64_t timeout_seconds_;
  std::chrono::steady_clock::time_point started_;
  uint64_t id_ = 0;
  std::atomic<bool> fired_{false};
  std::atomic<const char*> phase_{"render"};
};

}  // namespace dp
