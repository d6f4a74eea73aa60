#pragma once
// Cross-thread cancellation of a running statement: the running query installs a hook
// (PQcancel, KILL QUERY, sqlite3_interrupt) for its duration; Cancel() fires it.
#include <functional>
#include <mutex>

namespace dp {

class CancelToken {
 public:
  void Cancel();
  bool cancelled() const;
  // Installs the hook; fires it at once when already cancelled.
  void Attach(std::function<void()> hook);
  void Detach();

 private:
  // Held while a hook fires, so Detach() never returns with a hook still running.
  std::mutex fire_mutex_;
  mutable std::mutex mutex_;
  bool cancelled_ = false;
  std::function<void()> hook_;
};

}  // namespace dp
