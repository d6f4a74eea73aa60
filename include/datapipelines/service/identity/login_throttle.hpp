#pragma once
// The two login dampers of auth.md §5A.3 and §9, counted in a ThrottleStore (in process, or
// Redis shared by every instance, so attempts spread across instances share one budget):
//  - per client address: at most `per_address_per_minute` attempts in a fixed minute window
//    (429 rate_limit.exceeded, Retry-After = the rest of the window);
//  - per account: `max_failures` failures without a success lock the account for `lock_ms`;
//    while locked an attempt does no Argon2 work and does not touch the count, even with the
//    right password; a lock starts a fresh budget when it ends; a success clears the count.
//    Failures are forgotten `lock_ms` after the first of them.
#include <cstdint>
#include <string>
#include <string_view>

#include "datapipelines/limits/throttle_store.hpp"
#include "datapipelines/service/identity/attempt_window.hpp"

namespace dp {

struct LoginThrottleOptions {
  int per_address_per_minute = 10;
  int max_failures = 5;
  int64_t lock_ms = 15 * 60 * 1000;
};

class LoginThrottle {
 public:
  LoginThrottle(LoginThrottleOptions options, ThrottleStore& store);

  using AddressVerdict = AttemptWindow::Verdict;
  // Counts one attempt from `address`.
  AddressVerdict TakeAddressAttempt(std::string_view address, int64_t now_ms);
  // Milliseconds the account stays locked (0 = not locked).
  int64_t LockedFor(std::string_view account, int64_t now_ms);
  // A failed login; true when this failure engages the lock.
  bool RecordFailure(std::string_view account, int64_t now_ms);
  void RecordSuccess(std::string_view account);
  // An admin's unlock (or password reset): the lock and the failure count both go.
  void Unlock(std::string_view account);

 private:
  LoginThrottleOptions options_;
  ThrottleStore& store_;
  AttemptWindow addresses_;
};

}  // namespace dp
