#pragma once
// Arms cancellation for one running statement: the external CancelToken and the timeout
// deadline both call `cancel`; on scope exit both are disarmed (waiting out a firing one).
// A driver's cancel only reaches a statement the server is already running (PQcancel, KILL
// QUERY and sqlite3_interrupt are no-ops otherwise), so once fired the cancel is repeated
// every kRefireInterval until the statement ends: a cancel that lands between arming and the
// server starting the statement is not lost.
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>

#include "datapipelines/connectors/pool/cancel_token.hpp"
#include "deadline_watchdog.hpp"

namespace dp {

class StatementGuard {
 public:
  static constexpr std::chrono::milliseconds kRefireInterval{200};

  StatementGuard(CancelToken* token, int timeout_ms, std::function<void()> cancel);
  ~StatementGuard();
  StatementGuard(const StatementGuard&) = delete;
  StatementGuard& operator=(const StatementGuard&) = delete;

  bool timed_out() const { return timed_out_.load(); }
  bool cancelled() const { return token_ && token_->cancelled(); }
  bool fired() const { return timed_out() || cancelled(); }
  int timeout_ms() const { return timeout_ms_; }
  // Throws the timeout/cancel DomainError when either fired; no-op otherwise.
  void ThrowIfInterrupted() const;

 private:
  void Fire();  // any thread: cancels now and again until disarmed

  CancelToken* token_;
  int timeout_ms_;
  std::function<void()> cancel_;
  uint64_t deadline_id_ = 0;
  std::atomic<bool> timed_out_{false};
  std::mutex refire_mutex_;
  bool disarmed_ = false;
  uint64_t refire_id_ = 0;
};

}  // namespace dp
