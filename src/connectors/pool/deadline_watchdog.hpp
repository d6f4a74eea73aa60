#pragma once
// One background thread that fires cancel callbacks at statement deadlines, so a query
// timeout really stops the statement on the server (PQcancel, KILL QUERY, interrupt).
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace dp {

class DeadlineWatchdog {
 public:
  using Clock = std::chrono::steady_clock;
  static DeadlineWatchdog& Instance();

  uint64_t Schedule(Clock::time_point deadline, std::function<void()> callback);
  // Removes a pending callback; when it is running, waits for it to finish, so after this
  // returns the callback can no longer touch the session.
  void Unschedule(uint64_t id);

 private:
  DeadlineWatchdog();
  ~DeadlineWatchdog();
  void Run();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::multimap<Clock::time_point, std::pair<uint64_t, std::function<void()>>> pending_;
  uint64_t next_id_ = 1;
  uint64_t running_id_ = 0;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace dp
