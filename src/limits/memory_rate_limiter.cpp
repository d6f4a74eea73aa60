#include "datapipelines/limits/memory_rate_limiter.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "datapipelines/util/clock.hpp"

namespace dp {
namespace {

// Float slack so a bucket refilled to 0.9999999999 still counts as holding a token.
constexpr double kEpsilon = 1e-9;

double PerMsSecond(const RateLimitPolicy& policy) { return policy.requests_per_second / 1000.0; }
double PerMsMinute(const RateLimitPolicy& policy) { return policy.requests_per_minute / 60000.0; }

int64_t CeilMs(double value) { return static_cast<int64_t>(std::ceil(value - kEpsilon)); }

}  // namespace

void ValidateRateLimitPolicy(const RateLimitPolicy& policy) {
  if (policy.requests_per_second < 1 || policy.requests_per_minute < 1) {
    throw std::invalid_argument("rate limits must be at least 1 request per second and minute");
  }
}

TokenBuckets TokenBuckets::Full(const RateLimitPolicy& policy, int64_t now_ms) {
  return TokenBuckets{static_cast<double>(policy.requests_per_second),
                      static_cast<double>(policy.requests_per_minute), now_ms};
}

int64_t TokenBuckets::MillisUntilFull(const RateLimitPolicy& policy) const {
  int64_t second = CeilMs((policy.requests_per_second - second_tokens) / PerMsSecond(policy));
  int64_t minute = CeilMs((policy.requests_per_minute - minute_tokens) / PerMsMinute(policy));
  return std::max<int64_t>({0, second, minute});
}

TokenBuckets::Step TokenBuckets::Take(const RateLimitPolicy& policy, int64_t now_ms) {
  const double rs = PerMsSecond(policy), rm = PerMsMinute(policy);
  const double elapsed = static_cast<double>(std::max<int64_t>(0, now_ms - updated_ms));
  second_tokens = std::min<double>(policy.requests_per_second, second_tokens + elapsed * rs);
  minute_tokens = std::min<double>(policy.requests_per_minute, minute_tokens + elapsed * rm);
  updated_ms = std::max(updated_ms, now_ms);

  RateDecision decision;
  decision.limit = policy.requests_per_second;
  const bool second_short = second_tokens < 1 - kEpsilon;
  const bool minute_short = minute_tokens < 1 - kEpsilon;
  decision.allowed = !second_short && !minute_short;
  int64_t wait_ms = 0;
  if (decision.allowed) {
    second_tokens -= 1;
    minute_tokens -= 1;
  } else {
    if (second_short) wait_ms = std::max(wait_ms, CeilMs((1 - second_tokens) / rs));
    if (minute_short) wait_ms = std::max(wait_ms, CeilMs((1 - minute_tokens) / rm));
    decision.retry_after_seconds = std::max<int64_t>(1, (wait_ms + 999) / 1000);
  }
  decision.remaining = std::max<int64_t>(
      0, static_cast<int64_t>(std::floor(std::min(second_tokens, minute_tokens) + kEpsilon)));

  // The limiting bucket: the refusing one (the slower if both), else the one with fewer tokens.
  const int64_t full_second = CeilMs((policy.requests_per_second - second_tokens) / rs);
  const int64_t full_minute = CeilMs((policy.requests_per_minute - minute_tokens) / rm);
  int64_t full_ms = std::max(full_second, full_minute);
  if (decision.allowed ? second_tokens < minute_tokens : (second_short && !minute_short)) {
    full_ms = full_second;
  } else if (decision.allowed ? minute_tokens < second_tokens : (minute_short && !second_short)) {
    full_ms = full_minute;
  }
  return Step{decision, std::max<int64_t>(0, full_ms)};
}

MemoryRateLimiter::MemoryRateLimiter(RateLimitPolicy policy, MemoryRateLimiterOptions options)
    : policy_(policy), options_(std::move(options)), origin_(options_.now()) {
  ValidateRateLimitPolicy(policy_);
}

int64_t MemoryRateLimiter::SteadyMs() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(options_.now() - origin_).count();
}

RateDecision MemoryRateLimiter::Acquire(const std::string& user_id) {
  TokenBuckets::Step step;
  {
    std::lock_guard lock(mutex_);
    const int64_t now = SteadyMs();
    if (now - last_sweep_ms_ >= options_.sweep_interval.count()) SweepLocked(now);
    auto [it, inserted] = users_.try_emplace(user_id, TokenBuckets::Full(policy_, now));
    step = it->second.Take(policy_, now);
  }
  step.decision.reset_epoch_seconds = (dp::NowMs() + step.reset_in_ms + 999) / 1000;
  return step.decision;
}

std::size_t MemoryRateLimiter::tracked_users() const {
  std::lock_guard lock(mutex_);
  return users_.size();
}

void MemoryRateLimiter::SweepLocked(int64_t now_ms) {
  // A user idle until both buckets are full again is exactly a fresh user: drop it.
  std::erase_if(users_, [&](const auto& entry) {
    return now_ms - entry.second.updated_ms >= entry.second.MillisUntilFull(policy_);
  });
  last_sweep_ms_ = now_ms;
}

}  // namespace dp
