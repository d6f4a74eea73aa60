#include "datapipelines/limits/rate_limiter.hpp"

#include <stdexcept>

#include "datapipelines/limits/memory_rate_limiter.hpp"
#include "datapipelines/limits/memory_throttle_store.hpp"
#include "datapipelines/limits/redis_rate_limiter.hpp"
#include "datapipelines/limits/redis_throttle_store.hpp"
#include "datapipelines/redis/redis_url.hpp"

namespace dp {
namespace {

bool IsMemory(const std::string& url) { return url.empty() || url == "memory"; }
bool IsRedis(const std::string& url) { return url.rfind("redis://", 0) == 0; }

// Short timeouts: every request waits on these calls, and failure is already handled (callers
// fail closed).
RedisPoolOptions FailClosedPoolOptions() {
  RedisPoolOptions options;
  options.timeouts.connect = std::chrono::milliseconds(1000);
  options.timeouts.command = std::chrono::milliseconds(2000);
  options.acquire_timeout = std::chrono::milliseconds(2000);
  return options;
}

[[noreturn]] void Unsupported() {
  // Do not echo the URL: it may carry credentials.
  throw std::invalid_argument(
      "unsupported rate limiter URL: expected memory or redis://host:port[/db]");
}

}  // namespace

std::unique_ptr<RateLimiter> OpenRateLimiter(const std::string& url, RateLimitPolicy policy) {
  if (IsMemory(url)) return std::make_unique<MemoryRateLimiter>(policy);
  if (IsRedis(url)) {
    return std::make_unique<RedisRateLimiter>(RedisUrl::Parse(url), policy,
                                              FailClosedPoolOptions());
  }
  Unsupported();
}

std::shared_ptr<ThrottleStore> OpenThrottleStore(const std::string& url) {
  if (IsMemory(url)) return std::make_shared<MemoryThrottleStore>();
  if (IsRedis(url)) {
    return std::make_shared<RedisThrottleStore>(RedisUrl::Parse(url), FailClosedPoolOptions());
  }
  Unsupported();
}

}  // namespace dp
