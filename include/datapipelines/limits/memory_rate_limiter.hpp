#pragma once
// In-process rate limiter (embedded default): two token buckets per user, a per-second one
// (capacity and refill = requests_per_second) and a per-minute one (capacity and refill =
// requests_per_minute per 60 s); a request needs a token from both. Idle users are evicted
// once both their buckets would be full again, which loses nothing. Thread-safe.
#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

#include "datapipelines/limits/rate_limiter.hpp"
#include "datapipelines/util/steady_now.hpp"

namespace dp {

// The bucket state and the one decision step shared (in spirit) with the Redis Lua script.
struct TokenBuckets {
  double second_tokens = 0;
  double minute_tokens = 0;
  int64_t updated_ms = 0;  // on the caller's clock

  static TokenBuckets Full(const RateLimitPolicy& policy, int64_t now_ms);
  struct Step {
    RateDecision decision;    // reset_epoch_seconds left 0: the caller owns the wall clock
    int64_t reset_in_ms = 0;  // until the limiting bucket is full again
  };
  // Refills to now_ms, then takes a token from both buckets if each holds one.
  Step Take(const RateLimitPolicy& policy, int64_t now_ms);
  // Milliseconds until both buckets are full again (after which the state is a fresh one).
  int64_t MillisUntilFull(const RateLimitPolicy& policy) const;
};

struct MemoryRateLimiterOptions {
  SteadyNow now = RealSteadyNow();
  std::chrono::milliseconds sweep_interval{60'000};  // idle-user eviction cadence
};

class MemoryRateLimiter : public RateLimiter {
 public:
  // Throws std::invalid_argument when a policy limit is below 1.
  explicit MemoryRateLimiter(RateLimitPolicy policy, MemoryRateLimiterOptions options = {});

  RateDecision Acquire(const std::string& user_id) override;
  bool Ping() override { return true; }
  bool DecidesInProcess() const override { return true; }
  std::size_t tracked_users() const;

 private:
  int64_t SteadyMs() const;  // milliseconds since construction
  void SweepLocked(int64_t now_ms);

  RateLimitPolicy policy_;
  MemoryRateLimiterOptions options_;
  std::chrono::steady_clock::time_point origin_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, TokenBuckets> users_;
  int64_t last_sweep_ms_ = 0;
};

// Checks a policy's limits (>= 1 each); throws std::invalid_argument otherwise.
void ValidateRateLimitPolicy(const RateLimitPolicy& policy);

}  // namespace dp
