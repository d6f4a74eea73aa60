#include "statement_guard.hpp"

#include "connectors/driver_errors.hpp"

namespace dp {

StatementGuard::StatementGuard(CancelToken* token, int timeout_ms, std::function<void()> cancel)
    : token_(token), timeout_ms_(timeout_ms), cancel_(std::move(cancel)) {
  if (token_) token_->Attach([this] { Fire(); });
  if (timeout_ms_ > 0) {
    auto deadline = DeadlineWatchdog::Clock::now() + std::chrono::milliseconds(timeout_ms_);
    deadline_id_ = DeadlineWatchdog::Instance().Schedule(deadline, [this] {
      timed_out_ = true;
      Fire();
    });
  }
}

StatementGuard::~StatementGuard() {
  if (token_) token_->Detach();  // waits out a hook firing now
  if (deadline_id_) DeadlineWatchdog::Instance().Unschedule(deadline_id_);
  uint64_t refire = 0;
  {
    std::lock_guard lock(refire_mutex_);
    disarmed_ = true;  // no Fire schedules another repeat after this
    refire = refire_id_;
  }
  if (refire) DeadlineWatchdog::Instance().Unschedule(refire);
}

void StatementGuard::Fire() {
  cancel_();
  std::lock_guard lock(refire_mutex_);
  if (disarmed_) return;
  refire_id_ = DeadlineWatchdog::Instance().Schedule(
      DeadlineWatchdog::Clock::now() + kRefireInterval, [this] { Fire(); });
}

void StatementGuard::ThrowIfInterrupted() const {
  if (timed_out()) throw driver_errors::TimedOut(timeout_ms_);
  if (cancelled()) throw driver_errors::Cancelled();
}

}  // namespace dp
