#pragma once
// The two login dampers of auth.md §5A.3 and §9, in-process (per instance, no Redis):
//  - per client address: at most `per_address_per_minute` attempts in a fixed minute window
//    (429 rate_limit.exceeded, Retry-After = the rest of the window);
//  - per account: `max_failures` consecutive failures lock the account for `lock_ms`; while
//    locked an attempt does no Argon2 work and does not touch the count, even with the right
//    password; an expired lock starts a fresh budget; a success clears the count.
// Memory is bounded: at most `max_entries` tracked keys per table (the stalest is evicted).
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "datapipelines/auth/attempt_window.hpp"

namespace dp {

struct LoginThrottleOptions {
  int per_address_per_minute = 10;
  int max_failures = 5;
  int64_t lock_ms = 15 * 60 * 1000;
  std::size_t max_entries = 100000;
};

class LoginThrottle {
 public:
  explicit LoginThrottle(LoginThrottleOptions options = {});

  using AddressVerdict = AttemptWindow::Verdict;
  // Counts one attempt from `address`.
  AddressVerdict TakeAddressAttempt(std::string_view address, int64_t now_ms);
  // Milliseconds the account stays locked (0 = not locked).
  int64_t LockedFor(std::string_view account, int64_t now_ms);
  // A failed login; true when this failure engages the lock.
  bool RecordFailure(std::string_view account, int64_t now_ms);
  void RecordSuccess(std::string_view account);

 private:
  struct Account {
    int failures = 0;
    int64_t locked_until_ms = 0;
    int64_t last_ms = 0;
  };
  void MakeRoom(int64_t now_ms);

  LoginThrottleOptions options_;
  AttemptWindow addresses_;
  std::mutex mutex_;
  std::unordered_map<std::string, Account> accounts_;
};

}  // namespace dp
