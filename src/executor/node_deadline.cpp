#include "datapipelines/executor/node_deadline.hpp"

#include <string_view>

#include "connectors/pool/deadline_watchdog.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {

NodeDeadline::NodeDeadline(CancelToken* token, int64_t timeout_seconds)
    : timeout_seconds_(timeout_seconds), started_(DeadlineWatchdog::Clock::now()) {
  id_ = DeadlineWatchdog::Instance().Schedule(started_ + std::chrono::seconds(timeout_seconds),
                                              [this, token] {
                                                fired_ = true;
                                                token->Cancel();
                                              });
}

// Unschedule waits for a firing callback, so it never touches a destroyed deadline.
NodeDeadline::~NodeDeadline() { DeadlineWatchdog::Instance().Unschedule(id_); }

int64_t NodeDeadline::elapsed_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(DeadlineWatchdog::Clock::now() -
                                                               started_)
      .count();
}

DomainError NodeDeadline::Error(const std::string& node_id) const {
  const std::string phase = phase_.load();
  return DomainError(
      errc::kNodeTimeout,
      "Node '" + node_id + "' outlived its " + std::to_string(timeout_seconds_) +
          " s deadline during " + phase + "; " +
          (phase == "materialize" ? "stage or return less data, or raise settings.timeout_seconds."
                                  : "make the query cheaper or raise settings.timeout_seconds."),
      Json{{"node", node_id},
           {"timeout_seconds", timeout_seconds_},
           {"elapsed_ms", elapsed_ms()},
           {"phase", phase}});
}

}  // namespace dp
