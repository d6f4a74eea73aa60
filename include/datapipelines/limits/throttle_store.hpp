#pragma once
// The counters behind the login damper, the account lockout and the Argon2 verification bound
// (auth.md §5A.3, §9): expiring counters and flags by key. In-process for the embedded default;
// in Redis when datapipelines.rate-limit.url is, so several instances share one budget and an
// attacker gains nothing by spreading attempts across them.
#include <cstdint>
#include <memory>
#include <string>

namespace dp {

class ThrottleStore {
 public:
  virtual ~ThrottleStore() = default;

  struct Count {
    int64_t count = 0;         // including this increment
    int64_t remaining_ms = 0;  // until the counter expires
  };
  // Adds one to `key`; a counter that does not exist starts at 1 and lives `ttl_ms`.
  virtual Count Increment(const std::string& key, int64_t ttl_ms, int64_t now_ms) = 0;
  // Milliseconds `key` (a flag or a counter) has left; 0 when absent.
  virtual int64_t RemainingMs(const std::string& key, int64_t now_ms) = 0;
  // Sets the flag `key` for `ttl_ms`.
  virtual void Flag(const std::string& key, int64_t ttl_ms, int64_t now_ms) = 0;
  virtual void Remove(const std::string& key) = 0;
};

// "memory" (or empty) | "redis://…" (the rate limiter's URL). Redis failures are
// rate_limit.unavailable refusals: a throttle that cannot count fails closed.
std::shared_ptr<ThrottleStore> OpenThrottleStore(const std::string& url);

}  // namespace dp
