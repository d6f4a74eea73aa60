// OpenResultStore / OpenRateLimiter pick the adapter from a URL without connecting.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "datapipelines/limits/rate_limiter.hpp"
#include "datapipelines/results/memory_result_store.hpp"
#include "datapipelines/results/result_store.hpp"

namespace dp {
namespace {

template <typename Fn>
std::string InvalidArgumentMessage(Fn&& fn) {
  try {
    fn();
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  ADD_FAILURE() << "no std::invalid_argument";
  return {};
}

TEST(OpenResultStoreTest, EmptyAndMemoryOpenTheDefaultMemoryStore) {
  for (const char* url : {"", "memory"}) {
    auto store = OpenResultStore(url);
    ASSERT_EQ(store->BackendName(), "memory");
    EXPECT_EQ(dynamic_cast<MemoryResultStore&>(*store).max_bytes(), std::size_t{256} << 20);
    EXPECT_TRUE(store->Ping());
  }
}

TEST(OpenResultStoreTest, MemoryWithSizeSetsTheCap) {
  auto store = OpenResultStore("memory:1048576");
  EXPECT_EQ(dynamic_cast<MemoryResultStore&>(*store).max_bytes(), 1048576u);
}

TEST(OpenResultStoreTest, RejectsBadMemorySizes) {
  for (const char* url : {"memory:", "memory:0", "memory:12kb", "memory:-5"}) {
    EXPECT_THROW(OpenResultStore(url), std::invalid_argument) << url;
  }
}

TEST(OpenResultStoreTest, RedisUrlOpensRedisStoreLazily) {
  auto store = OpenResultStore("redis://:s3cret@127.0.0.1:6379/2");
  EXPECT_EQ(store->BackendName(), "redis");
}

TEST(OpenResultStoreTest, UnknownSchemeIsRejectedWithoutEchoingTheUrl) {
  std::string message =
      InvalidArgumentMessage([] { OpenResultStore("postgresql://u:s3cret@h/db"); });
  EXPECT_NE(message.find("unsupported result store URL"), std::string::npos);
  EXPECT_EQ(message.find("s3cret"), std::string::npos);
  message = InvalidArgumentMessage([] { OpenResultStore("redis://:s3cret@h:bad"); });
  EXPECT_EQ(message.find("s3cret"), std::string::npos);
}

TEST(OpenRateLimiterTest, MemoryAndRedisOpenWithoutConnecting) {
  EXPECT_NE(OpenRateLimiter("", {}), nullptr);
  EXPECT_NE(OpenRateLimiter("memory", {}), nullptr);
  EXPECT_NE(OpenRateLimiter("redis://:s3cret@127.0.0.1:6379/1", {}), nullptr);
}

TEST(OpenRateLimiterTest, RejectsUnknownSchemesAndNonPositivePolicies) {
  std::string message = InvalidArgumentMessage([] { OpenRateLimiter("mem://:s3cret@x", {}); });
  EXPECT_EQ(message.find("s3cret"), std::string::npos);
  EXPECT_THROW(OpenRateLimiter("memory", RateLimitPolicy{0, 100}), std::invalid_argument);
  EXPECT_THROW(OpenRateLimiter("memory", RateLimitPolicy{10, 0}), std::invalid_argument);
  EXPECT_THROW(OpenRateLimiter("redis://h", RateLimitPolicy{-1, 100}), std::invalid_argument);
}

}  // namespace
}  // namespace dp
