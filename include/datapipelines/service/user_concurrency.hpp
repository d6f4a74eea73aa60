#pragma once
// Per-user concurrency of expensive calls (issue 9): sql_probe, datasources_preview_rows and
// template renders hold a permit while they run. A user at the limit waits in a bounded
// queue (at most `max_wait_ms`), then gets 429 rate_limit.exceeded (details.reason
// "concurrency", retry_after_seconds). Cheap reads and authentication never take a permit,
// so one key cannot occupy the blocking pool and stall them. Executions have their own
// limit (datapipelines.executor.max-concurrent-executions-per-user).
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <unordered_map>

namespace dp {

class UserConcurrency {
 public:
  UserConcurrency(int max_per_user, int max_wait_ms)
      : max_per_user_(max_per_user), max_wait_ms_(max_wait_ms) {}

  class Permit {
   public:
    Permit() = default;
    Permit(UserConcurrency* owner, std::string user) : owner_(owner), user_(std::move(user)) {}
    Permit(Permit&& other) noexcept : owner_(other.owner_), user_(std::move(other.user_)) {
      other.owner_ = nullptr;
    }
    Permit& operator=(Permit&&) = delete;
    ~Permit() {
      if (owner_) owner_->Release(user_);
    }

   private:
    UserConcurrency* owner_ = nullptr;
    std::string user_;
  };

  // Blocks up to max_wait_ms for a slot; throws DomainError rate_limit.exceeded after.
  Permit Acquire(const std::string& user_id);
  int max_per_user() const { return max_per_user_; }

 private:
  void Release(const std::string& user_id);

  int max_per_user_;
  int max_wait_ms_;
  std::mutex mutex_;
  std::condition_variable freed_;
  std::unordered_map<std::string, int> running_;
};

}  // namespace dp
