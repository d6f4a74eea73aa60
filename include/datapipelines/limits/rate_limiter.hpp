#pragma once
// Per-user token buckets shared by REST and MCP (REST API §12). Embedded: in-process;
// production: Redis (one Lua script, shared by all instances).
#include <cstdint>
#include <memory>
#include <string>

namespace dp {

struct RateLimitPolicy {
  int requests_per_second = 100;  // bucket refill rate and burst
  int requests_per_minute = 1000;
};

struct RateDecision {
  bool allowed = true;
  int64_t limit = 0;                // RateLimit-Limit
  int64_t remaining = 0;            // RateLimit-Remaining
  int64_t reset_epoch_seconds = 0;  // RateLimit-Reset
  int64_t retry_after_seconds = 0;  // Retry-After when !allowed (>= 1)
};

// Thrown when the limiter cannot decide (Redis down): callers fail closed
// with 429 rate_limit.unavailable.
class RateLimiterUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RateLimiter {
 public:
  virtual ~RateLimiter() = default;
  // Takes one token from the user's buckets (second and minute windows).
  virtual RateDecision Acquire(const std::string& user_id) = 0;
  // True when the limiter can decide (readiness): its Redis answers, or it is in-process.
  virtual bool Ping() = 0;
  // True when Acquire never waits on the network (the in-process limiter): the HTTP layer may
  // then charge a request on its I/O thread.
  virtual bool DecidesInProcess() const { return false; }
};

// "memory" (or empty) | "redis://[:password@]host:port[/db]".
std::unique_ptr<RateLimiter> OpenRateLimiter(const std::string& url, RateLimitPolicy policy);

}  // namespace dp
