// The token-bucket step and the in-process limiter on a fake clock (no servers).
#include <gtest/gtest.h>

#include "datapipelines/limits/memory_rate_limiter.hpp"
#include "datapipelines/util/clock.hpp"

namespace dp {
namespace {

TEST(TokenBucketsTest, BurstThenRefusalWithRetryAfter) {
  RateLimitPolicy policy{3, 100};
  TokenBuckets buckets = TokenBuckets::Full(policy, 0);
  for (int expected_remaining : {2, 1, 0}) {
    RateDecision decision = buckets.Take(policy, 0).decision;
    EXPECT_TRUE(decision.allowed);
    EXPECT_EQ(decision.limit, 3);
    EXPECT_EQ(decision.remaining, expected_remaining);
    EXPECT_EQ(decision.retry_after_seconds, 0);
  }
  TokenBuckets::Step refused = buckets.Take(policy, 0);
  EXPECT_FALSE(refused.decision.allowed);
  EXPECT_EQ(refused.decision.remaining, 0);
  EXPECT_EQ(refused.decision.retry_after_seconds, 1);
  EXPECT_EQ(refused.reset_in_ms, 1000);  // until the second bucket is full
}

TEST(TokenBucketsTest, RefillsContinuously) {
  RateLimitPolicy policy{4, 1000};
  TokenBuckets buckets = TokenBuckets::Full(policy, 0);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(buckets.Take(policy, 0).decision.allowed);
  EXPECT_FALSE(buckets.Take(policy, 249).decision.allowed);  // 0.996 of a token
  RateDecision decision = buckets.Take(policy, 250).decision;
  EXPECT_TRUE(decision.allowed);
  EXPECT_EQ(decision.remaining, 0);
  // Capped at capacity, minus the one taken.
  EXPECT_EQ(buckets.Take(policy, 10'000).decision.remaining, 3);
}

TEST(TokenBucketsTest, MinuteBucketLimitsAndDrivesRetryAfter) {
  RateLimitPolicy policy{100, 2};
  TokenBuckets buckets = TokenBuckets::Full(policy, 0);
  EXPECT_TRUE(buckets.Take(policy, 0).decision.allowed);
  RateDecision second = buckets.Take(policy, 0).decision;
  EXPECT_TRUE(second.allowed);
  EXPECT_EQ(second.remaining, 0);
  EXPECT_EQ(second.limit, 100);
  TokenBuckets::Step refused = buckets.Take(policy, 0);
  EXPECT_FALSE(refused.decision.allowed);
  EXPECT_EQ(refused.decision.retry_after_seconds, 30);  // one token per 30 s
  EXPECT_EQ(refused.reset_in_ms, 60'000);
  EXPECT_TRUE(buckets.Take(policy, 30'000).decision.allowed);
}

TEST(TokenBucketsTest, ResetFollowsTheBucketWithFewerTokens) {
  RateLimitPolicy policy{10, 60};
  TokenBuckets buckets = TokenBuckets::Full(policy, 0);
  TokenBuckets::Step step = buckets.Take(policy, 0);
  // Second bucket 9/10 (full in 100 ms) is the limiting one against the minute's 59/60.
  EXPECT_EQ(step.decision.remaining, 9);
  EXPECT_EQ(step.reset_in_ms, 100);
  EXPECT_EQ(buckets.MillisUntilFull(policy), 1000);  // the minute bucket needs 1 s
}

TEST(TokenBucketsTest, ClockGoingBackwardsRefillsNothing) {
  RateLimitPolicy policy{1, 100};
  TokenBuckets buckets = TokenBuckets::Full(policy, 5000);
  EXPECT_TRUE(buckets.Take(policy, 5000).decision.allowed);
  EXPECT_FALSE(buckets.Take(policy, 1000).decision.allowed);
}

class FakeSteadyClock {
 public:
  SteadyNow Now() {
    return [this] { return base_ + offset_; };
  }
  void Advance(std::chrono::milliseconds by) { offset_ += by; }

 private:
  std::chrono::steady_clock::time_point base_ = std::chrono::steady_clock::now();
  std::chrono::milliseconds offset_{0};
};

TEST(MemoryRateLimiterTest, ReportsResetAsEpochSeconds) {
  FakeSteadyClock clock;
  MemoryRateLimiter limiter({2, 100}, {clock.Now(), std::chrono::milliseconds(60'000)});
  int64_t now_s = NowMs() / 1000;
  limiter.Acquire("u");
  RateDecision decision = limiter.Acquire("u");
  EXPECT_TRUE(decision.allowed);
  EXPECT_GE(decision.reset_epoch_seconds, now_s + 1);
  EXPECT_LE(decision.reset_epoch_seconds, now_s + 3);
}

TEST(MemoryRateLimiterTest, EvictsUsersOnlyOnceTheirBucketsAreFull) {
  FakeSteadyClock clock;
  // Minute bucket refills one token per second: five tokens taken are back after 5 s.
  MemoryRateLimiter limiter({10, 60}, {clock.Now(), std::chrono::milliseconds(1000)});
  for (int i = 0; i < 50; ++i) {
    for (int j = 0; j < 5; ++j) limiter.Acquire("user-" + std::to_string(i));
  }
  EXPECT_EQ(limiter.tracked_users(), 50u);
  clock.Advance(std::chrono::milliseconds(2000));
  limiter.Acquire("busy");  // sweeps, but no bucket is full yet: nothing is dropped
  EXPECT_EQ(limiter.tracked_users(), 51u);
  clock.Advance(std::chrono::milliseconds(4000));
  limiter.Acquire("other");  // the 50 are full again and dropped; "busy" (1 token) too
  EXPECT_EQ(limiter.tracked_users(), 1u);
  // An evicted user starts from full buckets, exactly the state it would have had.
  EXPECT_EQ(limiter.Acquire("user-0").remaining, 9);
}

}  // namespace
}  // namespace dp
