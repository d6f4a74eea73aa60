#include "datapipelines/service/user_concurrency.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {

UserConcurrency::Permit UserConcurrency::Acquire(const std::string& user_id) {
  std::unique_lock lock(mutex_);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(max_wait_ms_);
  bool got = freed_.wait_until(lock, deadline, [&] {
    auto it = running_.find(user_id);
    return it == running_.end() || it->second < max_per_user_;
  });
  if (!got) {
    throw DomainError(
        errc::kRateLimitExceeded,
        "Too many expensive calls of this user run at once (limit " +
            std::to_string(max_per_user_) + "); retry shortly.",
        Json{{"reason", "concurrency"}, {"limit", max_per_user_}, {"retry_after_seconds", 1}});
  }
  ++running_[user_id];
  return Permit(this, user_id);
}

void UserConcurrency::Release(const std::string& user_id) {
  {
    std::lock_guard lock(mutex_);
    auto it = running_.find(user_id);
    if (it != running_.end() && --it->second <= 0) running_.erase(it);
  }
  freed_.notify_all();
}

}  // namespace dp
