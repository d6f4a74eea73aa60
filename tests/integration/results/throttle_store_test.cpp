// One suite for both ThrottleStore adapters — memory (fake clock) and Redis (db 1, real time) —
// and the two dampers counted in them: AttemptWindow (login per address, Argon2 per key) and
// LoginThrottle's account lock. With Redis, two throttles over two stores are two instances.
#include <gtest/gtest.h>

#include <thread>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/limits/memory_throttle_store.hpp"
#include "datapipelines/limits/redis_throttle_store.hpp"
#include "datapipelines/redis/redis_url.hpp"
#include "datapipelines/service/identity/attempt_window.hpp"
#include "datapipelines/service/identity/login_throttle.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"
#include "results_test_support.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

class ThrottleStoreTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "redis") {
      DP_REQUIRE_SERVICE_URL(url, "DP_TEST_REDIS_URL");
      redis_url_ = test::RedisDb1Url(url);
    }
    prefix_ = "test-" + NewUuid() + "-";
    store_ = Make();
  }

  // A second handle on the same counters: the memory store is one process, so it is itself;
  // Redis gives another instance's view.
  std::shared_ptr<ThrottleStore> Make() {
    if (GetParam() == "memory") return store_ ? store_ : std::make_shared<MemoryThrottleStore>();
    return std::make_shared<RedisThrottleStore>(RedisUrl::Parse(redis_url_), RedisPoolOptions{});
  }

  std::string Key(const std::string& name) { return prefix_ + name; }

  void Advance(int64_t ms) {
    if (GetParam() == "memory") {
      now_ += ms;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    }
  }

  std::string redis_url_;
  std::string prefix_;
  std::shared_ptr<ThrottleStore> store_;
  int64_t now_ = NowMs();
};

TEST_P(ThrottleStoreTest, CounterCountsAndExpiresAtTheTtlOfItsFirstIncrement) {
  EXPECT_EQ(store_->Increment(Key("c"), 400, now_).count, 1);
  Advance(150);
  ThrottleStore::Count second = store_->Increment(Key("c"), 400, now_);
  EXPECT_EQ(second.count, 2);
  EXPECT_GT(second.remaining_ms, 0);
  EXPECT_LE(second.remaining_ms, 260);  // the window does not slide with each increment
  Advance(400);
  EXPECT_EQ(store_->Increment(Key("c"), 400, now_).count, 1);
}

TEST_P(ThrottleStoreTest, FlagsHaveARemainingTimeAndCanBeRemoved) {
  EXPECT_EQ(store_->RemainingMs(Key("f"), now_), 0);
  store_->Flag(Key("f"), 5000, now_);
  int64_t left = store_->RemainingMs(Key("f"), now_);
  EXPECT_GT(left, 4000);
  EXPECT_LE(left, 5000);
  store_->Remove(Key("f"));
  EXPECT_EQ(store_->RemainingMs(Key("f"), now_), 0);
}

TEST_P(ThrottleStoreTest, AttemptWindowRefusesPastItsLimitOnceFirstThenRetryAfter) {
  AttemptWindow window(3, *store_, Key("window"));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(window.Take("10.0.0.1", now_).allowed);
  AttemptWindow::Verdict refused = window.Take("10.0.0.1", now_);
  EXPECT_FALSE(refused.allowed);
  EXPECT_TRUE(refused.first_refusal);
  EXPECT_GE(refused.retry_after_seconds, 1);
  EXPECT_LE(refused.retry_after_seconds, 60);
  EXPECT_FALSE(window.Take("10.0.0.1", now_).first_refusal);  // one audit row per window
  EXPECT_TRUE(window.Take("10.0.0.2", now_).allowed);         // another address, its own budget
}

TEST_P(ThrottleStoreTest, TwoInstancesShareOneAddressBudget) {
  std::shared_ptr<ThrottleStore> other = Make();
  AttemptWindow a(4, *store_, Key("shared"));
  AttemptWindow b(4, *other, Key("shared"));
  EXPECT_TRUE(a.Take("10.0.0.9", now_).allowed);
  EXPECT_TRUE(b.Take("10.0.0.9", now_).allowed);
  EXPECT_TRUE(a.Take("10.0.0.9", now_).allowed);
  EXPECT_TRUE(b.Take("10.0.0.9", now_).allowed);
  EXPECT_FALSE(a.Take("10.0.0.9", now_).allowed);
  EXPECT_FALSE(b.Take("10.0.0.9", now_).allowed);
}

TEST_P(ThrottleStoreTest, FailuresAcrossInstancesLockTheAccountForBoth) {
  std::shared_ptr<ThrottleStore> other = Make();
  LoginThrottleOptions options{.per_address_per_minute = 100, .max_failures = 3, .lock_ms = 600};
  LoginThrottle a(options, *store_);
  LoginThrottle b(options, *other);
  const std::string account = Key("ann@example.com");
  EXPECT_FALSE(a.RecordFailure(account, now_));
  EXPECT_FALSE(b.RecordFailure(account, now_));
  EXPECT_EQ(a.LockedFor(account, now_), 0);
  EXPECT_TRUE(b.RecordFailure(account, now_));  // the third failure, wherever it lands, locks
  EXPECT_GT(a.LockedFor(account, now_), 0);
  EXPECT_GT(b.LockedFor(account, now_), 0);
  Advance(700);
  // The lock ended with a fresh budget: one failure does not lock again.
  EXPECT_EQ(a.LockedFor(account, now_), 0);
  EXPECT_FALSE(a.RecordFailure(account, now_));
}

TEST_P(ThrottleStoreTest, ASuccessClearsTheFailureCount) {
  LoginThrottle throttle({.per_address_per_minute = 100, .max_failures = 2, .lock_ms = 60000},
                         *store_);
  const std::string account = Key("bob@example.com");
  EXPECT_FALSE(throttle.RecordFailure(account, now_));
  throttle.RecordSuccess(account);
  EXPECT_FALSE(throttle.RecordFailure(account, now_));
  EXPECT_TRUE(throttle.RecordFailure(account, now_));
}

INSTANTIATE_TEST_SUITE_P(Adapters, ThrottleStoreTest, ::testing::Values("memory", "redis"));

TEST(MemoryThrottleStoreTest, StaysWithinItsEntryBoundDroppingWhatExpiresFirst) {
  MemoryThrottleStore store(2);
  store.Increment("long", 10000, 0);
  store.Increment("short", 100, 0);
  store.Increment("new", 10000, 50);  // full: the entry expiring first goes
  EXPECT_EQ(store.RemainingMs("short", 50), 0);
  EXPECT_GT(store.RemainingMs("long", 50), 0);
  EXPECT_GT(store.RemainingMs("new", 50), 0);
}

TEST(RedisThrottleStoreTest, AnUnreachableRedisFailsClosedWithoutItsUrl) {
  RedisPoolOptions options;
  options.timeouts.connect = std::chrono::milliseconds(500);
  RedisThrottleStore store(RedisUrl::Parse(test::kClosedRedisUrl), options);
  try {
    store.Increment("k", 1000, 0);
    FAIL() << "an unreachable Redis must refuse";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code().code, "rate_limit.unavailable");
    EXPECT_EQ(std::string(e.what()).find("s3cret"), std::string::npos);
    EXPECT_EQ(std::string(e.what()).find("127.0.0.1"), std::string::npos);
  }
}

}  // namespace
}  // namespace dp
