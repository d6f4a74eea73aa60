#include "deadline_watchdog.hpp"

namespace dp {

DeadlineWatchdog& DeadlineWatchdog::Instance() {
  static DeadlineWatchdog instance;
  return instance;
}

DeadlineWatchdog::DeadlineWatchdog() : thread_([this] { Run(); }) {}

DeadlineWatchdog::~DeadlineWatchdog() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

uint64_t DeadlineWatchdog::Schedule(Clock::time_point deadline, std::function<void()> callback) {
  std::lock_guard lock(mutex_);
  uint64_t id = next_id_++;
  pending_.emplace(deadline, std::make_pair(id, std::move(callback)));
  changed_.notify_all();
  return id;
}

void DeadlineWatchdog::Unschedule(uint64_t id) {
  std::unique_lock lock(mutex_);
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    if (it->second.first == id) {
      pending_.erase(it);
      return;
    }
  }
  changed_.wait(lock, [&] { return running_id_ != id; });
}

void DeadlineWatchdog::Run() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    if (pending_.empty()) {
      changed_.wait(lock);
      continue;
    }
    auto first = pending_.begin();
    if (first->first > Clock::now()) {
      changed_.wait_until(lock, first->first);
      continue;
    }
    auto [id, callback] = std::move(first->second);
    pending_.erase(first);
    running_id_ = id;
    lock.unlock();
    callback();
    lock.lock();
    running_id_ = 0;
    changed_.notify_all();
  }
}

}  // namespace dp
