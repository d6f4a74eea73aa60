// One suite for both RateLimiter adapters: memory (fake clock) and Redis (db 1, real time).
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <atomic>
#include <thread>

#include "datapipelines/limits/memory_rate_limiter.hpp"
#include "datapipelines/limits/redis_rate_limiter.hpp"
#include "datapipelines/redis/redis_connection.hpp"
#include "datapipelines/redis/redis_url.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"
#include "results_test_support.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

using std::chrono::milliseconds;

class RateLimiterTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "redis") {
      DP_REQUIRE_SERVICE_URL(url, "DP_TEST_REDIS_URL");
      redis_url_ = test::RedisDb1Url(url);
    }
    user_prefix_ = "test-" + NewUuid() + "-";
  }

  std::unique_ptr<RateLimiter> Make(RateLimitPolicy policy) {
    if (GetParam() == "memory") {
      MemoryRateLimiterOptions options;
      options.now = clock_.Now();
      return std::make_unique<MemoryRateLimiter>(policy, options);
    }
    return std::make_unique<RedisRateLimiter>(RedisUrl::Parse(redis_url_), policy);
  }

  std::string User(const std::string& name) { return user_prefix_ + name; }

  void Advance(milliseconds by) {
    if (GetParam() == "memory") {
      clock_.Advance(by);
    } else {
      std::this_thread::sleep_for(by);
    }
  }

  test::FakeSteadyClock clock_;
  std::string redis_url_;
  std::string user_prefix_;
};

TEST_P(RateLimiterTest, BurstUpToPerSecondLimitThenRefuses) {
  auto limiter = Make({5, 1000});
  std::string user = User("burst");
  int64_t now_s = NowMs() / 1000;
  for (int i = 0; i < 5; ++i) {
    RateDecision decision = limiter->Acquire(user);
    ASSERT_TRUE(decision.allowed) << "request " << i;
    EXPECT_EQ(decision.limit, 5);
    EXPECT_EQ(decision.remaining, 4 - i);
    EXPECT_GE(decision.reset_epoch_seconds, now_s);
    EXPECT_LE(decision.reset_epoch_seconds, now_s + 3);
  }
  RateDecision refused = limiter->Acquire(user);
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.limit, 5);
  EXPECT_EQ(refused.remaining, 0);
  EXPECT_GE(refused.retry_after_seconds, 1);
  EXPECT_LE(refused.retry_after_seconds, 1);  // one token per 200 ms
  EXPECT_GE(refused.reset_epoch_seconds, now_s + 1);
  EXPECT_LE(refused.reset_epoch_seconds, now_s + 3);
}

TEST_P(RateLimiterTest, RefillsAfterTimePasses) {
  auto limiter = Make({5, 1000});
  std::string user = User("refill");
  while (limiter->Acquire(user).allowed) {
  }
  EXPECT_FALSE(limiter->Acquire(user).allowed);
  Advance(milliseconds(450));  // two tokens at 5/s
  EXPECT_TRUE(limiter->Acquire(user).allowed);
  Advance(milliseconds(1100));  // back to full
  int allowed = 0;
  while (limiter->Acquire(user).allowed) ++allowed;
  EXPECT_GE(allowed, 5);
  EXPECT_LE(allowed, 6);  // real time may drip one more token in on Redis
}

TEST_P(RateLimiterTest, PerMinuteCapApplies) {
  auto limiter = Make({100, 3});
  std::string user = User("minute");
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(limiter->Acquire(user).allowed) << i;
  RateDecision refused = limiter->Acquire(user);
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.remaining, 0);
  EXPECT_EQ(refused.limit, 100);
  // One minute token per 20 s.
  EXPECT_GE(refused.retry_after_seconds, 19);
  EXPECT_LE(refused.retry_after_seconds, 20);
  int64_t now_s = NowMs() / 1000;
  EXPECT_GE(refused.reset_epoch_seconds, now_s + 58);  // the minute bucket is full in ~60 s
  EXPECT_LE(refused.reset_epoch_seconds, now_s + 61);
  Advance(milliseconds(1100));  // the second bucket is full again; the minute one is not
  EXPECT_FALSE(limiter->Acquire(user).allowed);
}

TEST_P(RateLimiterTest, UsersAreIndependent) {
  auto limiter = Make({2, 100});
  std::string a = User("a"), b = User("b");
  EXPECT_TRUE(limiter->Acquire(a).allowed);
  EXPECT_TRUE(limiter->Acquire(a).allowed);
  EXPECT_FALSE(limiter->Acquire(a).allowed);
  RateDecision other = limiter->Acquire(b);
  EXPECT_TRUE(other.allowed);
  EXPECT_EQ(other.remaining, 1);
}

TEST_P(RateLimiterTest, ConcurrentCallersNeverExceedTheBurst) {
  auto limiter = Make({20, 10'000});
  std::string user = User("concurrent");
  std::atomic<int> allowed{0};
  auto started = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i) allowed += limiter->Acquire(user).allowed ? 1 : 0;
    });
  }
  for (auto& thread : threads) thread.join();
  auto elapsed_ms =
      std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - started).count();
  EXPECT_GE(allowed.load(), 20);
  // Memory's clock is frozen; on Redis, real time refills 20 tokens per second.
  int64_t refill = GetParam() == "memory" ? 0 : elapsed_ms * 20 / 1000 + 1;
  EXPECT_LE(allowed.load(), 20 + refill);
}

INSTANTIATE_TEST_SUITE_P(Backends, RateLimiterTest, ::testing::Values("memory", "redis"),
                         [](const auto& info) { return info.param; });

// --- redis only --------------------------------------------------------------------------

TEST(RedisRateLimiterTest, RedisDownFailsClosedWithoutLeakingThePassword) {
  auto limiter = OpenRateLimiter(test::kClosedRedisUrl, {10, 100});
  try {
    limiter->Acquire("someone");
    FAIL() << "a decision was made without Redis";
  } catch (const RateLimiterUnavailable& error) {
    EXPECT_EQ(std::string(error.what()).find("s3cret-pw"), std::string::npos) << error.what();
  }
  EXPECT_THROW(limiter->Acquire("someone"), RateLimiterUnavailable);
}

TEST(RedisRateLimiterTest, KeepsOneExpiringHashPerUserAndCachesTheScript) {
  DP_REQUIRE_SERVICE_URL(url, "DP_TEST_REDIS_URL");
  RedisUrl redis_url = RedisUrl::Parse(test::RedisDb1Url(url));
  RedisRateLimiter limiter(redis_url, {10, 600});
  std::string user = "test-" + NewUuid();
  ASSERT_TRUE(limiter.Acquire(user).allowed);
  ASSERT_TRUE(limiter.Acquire(user).allowed);  // EVALSHA path once EVAL cached it
  RedisConnection raw(redis_url, {});
  std::string key = RedisRateLimiter::UserKey(user);
  RedisReply type = raw.Command({"TYPE", key});
  EXPECT_EQ(std::string(type->str, type->len), "hash");
  long long pttl = raw.Command({"PTTL", key})->integer;
  EXPECT_GT(pttl, 0);
  EXPECT_LE(pttl, 61'000);  // idle keys vanish once both buckets would be full
  RedisReply seconds = raw.Command({"HGET", key, "s"});
  EXPECT_NEAR(std::stod(std::string(seconds->str, seconds->len)), 8.0, 0.5);
  raw.Command({"DEL", key});
}

TEST(RedisRateLimiterTest, InstancesShareOneBucket) {
  DP_REQUIRE_SERVICE_URL(url, "DP_TEST_REDIS_URL");
  RedisUrl redis_url = RedisUrl::Parse(test::RedisDb1Url(url));
  RedisRateLimiter first(redis_url, {3, 100});
  RedisRateLimiter second(redis_url, {3, 100});
  std::string user = "test-" + NewUuid();
  EXPECT_TRUE(first.Acquire(user).allowed);
  EXPECT_TRUE(second.Acquire(user).allowed);
  EXPECT_TRUE(first.Acquire(user).allowed);
  EXPECT_FALSE(second.Acquire(user).allowed);
}

}  // namespace
}  // namespace dp
