#pragma once
// Cancellation of one execution (dag-executor §8.3): a reason set once (the first wins —
// a user's cancel, the execution deadline, a sibling's failure), and every statement running
// for the execution interrupted through its connector's cancel hook. Each running node holds
// its own CancelToken, because a token carries one statement's hook at a time.
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "datapipelines/connectors/pool/cancel_token.hpp"

namespace dp {

enum class AbortKind { kCancelled, kTimeout, kSiblingFailed, kShutdown };

struct AbortReason {
  AbortKind kind = AbortKind::kCancelled;
  std::string message;
};

class ExecutionCancellation {
 public:
  // Sets the reason (only the first call counts) and interrupts every running statement.
  void Abort(AbortReason reason);
  bool aborted() const;
  std::optional<AbortReason> reason() const;

  // A token for one node's statements; fired at once when the execution is already aborted.
  std::shared_ptr<CancelToken> NodeToken();
  void Release(const std::shared_ptr<CancelToken>& token);

  // Throws pipeline.execution.aborted (the node boundary check).
  void ThrowIfAborted() const;

  // A child execution's cancellation: aborting this one aborts the child too (a family stops
  // together, pipeline-contract §8.5); aborted already, the child is aborted at once.
  void Link(const std::shared_ptr<ExecutionCancellation>& child);
  void Unlink(const std::shared_ptr<ExecutionCancellation>& child);

 private:
  std::set<std::shared_ptr<ExecutionCancellation>> children_;
  mutable std::mutex mutex_;
  std::optional<AbortReason> reason_;
  std::set<std::shared_ptr<CancelToken>> tokens_;
};

}  // namespace dp
