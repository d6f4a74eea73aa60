#include "datapipelines/executor/execution_cancellation.hpp"

#include <vector>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {

void ExecutionCancellation::Abort(AbortReason reason) {
  std::vector<std::shared_ptr<CancelToken>> running;
  std::vector<std::shared_ptr<ExecutionCancellation>> children;
  {
    std::lock_guard lock(mutex_);
    if (reason_) return;
    reason_ = std::move(reason);
    running.assign(tokens_.begin(), tokens_.end());
    children.assign(children_.begin(), children_.end());
  }
  // Fired outside the lock: a hook may block briefly (PQcancel talks to the server).
  for (const auto& token : running) token->Cancel();
  for (const auto& child : children) {
    child->Abort({AbortKind::kCancelled, "The parent execution stopped: " + reason_->message});
  }
}

bool ExecutionCancellation::aborted() const {
  std::lock_guard lock(mutex_);
  return reason_.has_value();
}

std::optional<AbortReason> ExecutionCancellation::reason() const {
  std::lock_guard lock(mutex_);
  return reason_;
}

std::shared_ptr<CancelToken> ExecutionCancellation::NodeToken() {
  auto token = std::make_shared<CancelToken>();
  std::lock_guard lock(mutex_);
  if (reason_) token->Cancel();
  tokens_.insert(token);
  return token;
}

void ExecutionCancellation::Release(const std::shared_ptr<CancelToken>& token) {
  std::lock_guard lock(mutex_);
  tokens_.erase(token);
}

void ExecutionCancellation::Link(const std::shared_ptr<ExecutionCancellation>& child) {
  std::optional<AbortReason> already;
  {
    std::lock_guard lock(mutex_);
    children_.insert(child);
    already = reason_;
  }
  if (already) child->Abort({AbortKind::kCancelled, "The parent execution stopped."});
}

void ExecutionCancellation::Unlink(const std::shared_ptr<ExecutionCancellation>& child) {
  std::lock_guard lock(mutex_);
  children_.erase(child);
}

void ExecutionCancellation::ThrowIfAborted() const {
  auto current = reason();
  if (!current) return;
  throw DomainError(errc::kExecutionAborted,
                    current->message.empty() ? "The execution was aborted." : current->message);
}

}  // namespace dp
