#include "statement_guard.hpp"

#include "driver_errors.hpp"

namespace dp {

StatementGuard::StatementGuard(CancelToken* token, int timeout_ms, std::function<void()> cancel)
    : token_(token), timeout_ms_(timeout_ms) {
  if (token_) token_->Attach(cancel);
  if (timeout_ms_ > 0) {
    auto deadline = DeadlineWatchdog::Clock::now() + std::chrono::milliseconds(timeout_ms_);
    deadline_id_ = DeadlineWatchdog::Instance().Schedule(deadline, [this, cancel] {
      timed_out_ = true;
      cancel();
    });
  }
}

StatementGuard::~StatementGuard() {
  if (deadline_id_) DeadlineWatchdog::Instance().Unschedule(deadline_id_);
  if (token_) token_->Detach();
}

void StatementGuard::ThrowIfInterrupted() const {
  if (timed_out()) throw driver_errors::TimedOut(timeout_ms_);
  if (cancelled()) throw driver_errors::Cancelled();
}

}  // namespace dp
