#pragma once
// Arms cancellation for one running statement: the external CancelToken and the timeout
// deadline both call `cancel`; on scope exit both are disarmed (waiting out a firing one).
#include <atomic>
#include <functional>

#include "datapipelines/connectors/cancel_token.hpp"
#include "deadline_watchdog.hpp"

namespace dp {

class StatementGuard {
 public:
  StatementGuard(CancelToken* token, int timeout_ms, std::function<void()> cancel);
  ~StatementGuard();
  StatementGuard(const StatementGuard&) = delete;
  StatementGuard& operator=(const StatementGuard&) = delete;

  bool timed_out() const { return timed_out_.load(); }
  bool cancelled() const { return token_ && token_->cancelled(); }
  int timeout_ms() const { return timeout_ms_; }
  // Throws the timeout/cancel DomainError when either fired; no-op otherwise.
  void ThrowIfInterrupted() const;

 private:
  CancelToken* token_;
  int timeout_ms_;
  uint64_t deadline_id_ = 0;
  std::atomic<bool> timed_out_{false};
};

}  // namespace dp
