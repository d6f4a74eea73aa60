#include "datapipelines/results/rate_limiter.hpp"

#include <stdexcept>

#include "datapipelines/results/memory_rate_limiter.hpp"
#include "datapipelines/results/redis_rate_limiter.hpp"
#include "datapipelines/results/redis_url.hpp"

namespace dp {

std::unique_ptr<RateLimiter> OpenRateLimiter(const std::string& url, RateLimitPolicy policy) {
  if (url.empty() || url == "memory") return std::make_unique<MemoryRateLimiter>(policy);
  if (url.rfind("redis://", 0) == 0) {
    // Short timeouts: every request waits on this call, and failure is already handled
    // (callers fail closed).
    RedisPoolOptions options;
    options.timeouts.connect = std::chrono::milliseconds(1000);
    options.timeouts.command = std::chrono::milliseconds(2000);
    options.acquire_timeout = std::chrono::milliseconds(2000);
    return std::make_unique<RedisRateLimiter>(RedisUrl::Parse(url), policy, options);
  }
  // Do not echo the URL: it may carry credentials.
  throw std::invalid_argument(
      "unsupported rate limiter URL: expected memory or redis://host:port[/db]");
}

}  // namespace dp
