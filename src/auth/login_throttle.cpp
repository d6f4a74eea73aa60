#include "datapipelines/auth/login_throttle.hpp"

#include <algorithm>

namespace dp {

LoginThrottle::LoginThrottle(LoginThrottleOptions options)
    : options_(options), addresses_(options.per_address_per_minute, options.max_entries) {}

void LoginThrottle::MakeRoom(int64_t now_ms) {
  if (accounts_.size() < options_.max_entries) return;
  auto last_seen = [](const Account& a) { return std::max(a.last_ms, a.locked_until_ms); };
  // First whatever no longer matters, then (a flood of distinct names) the stalest entry.
  std::erase_if(accounts_, [&](const auto& item) {
    return last_seen(item.second) + options_.lock_ms < now_ms;
  });
  if (accounts_.size() < options_.max_entries) return;
  auto stalest = std::min_element(accounts_.begin(), accounts_.end(), [&](auto& a, auto& b) {
    return last_seen(a.second) < last_seen(b.second);
  });
  accounts_.erase(stalest);
}

LoginThrottle::AddressVerdict LoginThrottle::TakeAddressAttempt(std::string_view address,
                                                                int64_t now_ms) {
  return addresses_.Take(address, now_ms);
}

int64_t LoginThrottle::LockedFor(std::string_view account, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  auto it = accounts_.find(std::string(account));
  if (it == accounts_.end() || it->second.locked_until_ms <= now_ms) return 0;
  return it->second.locked_until_ms - now_ms;
}

bool LoginThrottle::RecordFailure(std::string_view account, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  auto it = accounts_.find(std::string(account));
  if (it == accounts_.end()) {
    MakeRoom(now_ms);
    it = accounts_.emplace(std::string(account), Account{}).first;
  }
  Account& entry = it->second;
  // An expired lock starts a fresh budget.
  if (entry.locked_until_ms != 0 && entry.locked_until_ms <= now_ms) entry = Account{};
  entry.last_ms = now_ms;
  if (++entry.failures < options_.max_failures) return false;
  entry.failures = 0;
  entry.locked_until_ms = now_ms + options_.lock_ms;
  return true;
}

void LoginThrottle::RecordSuccess(std::string_view account) {
  std::lock_guard lock(mutex_);
  accounts_.erase(std::string(account));
}

}  // namespace dp
