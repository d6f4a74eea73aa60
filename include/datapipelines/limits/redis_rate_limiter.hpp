#pragma once
// Redis rate limiter (shared by all instances): the token-bucket step of MemoryRateLimiter
// as one Lua script over a hash dp:rl:<user> {s, m, ts}, timed by Redis TIME so every
// instance uses one clock. Any Redis failure throws RateLimiterUnavailable (fail closed).
#include <mutex>
#include <string>

#include "datapipelines/limits/rate_limiter.hpp"
#include "datapipelines/redis/redis_pool.hpp"

namespace dp {

class RedisRateLimiter : public RateLimiter {
 public:
  // Does not connect: the pool opens connections on first use.
  RedisRateLimiter(const RedisUrl& url, RateLimitPolicy policy, RedisPoolOptions options = {});

  RateDecision Acquire(const std::string& user_id) override;
  bool Ping() override { return pool_.Ping(); }

  static std::string UserKey(const std::string& user_id) { return "dp:rl:" + user_id; }
  static const std::string& Script();

 private:
  RateDecision Evaluate(RedisConnection& connection, const std::string& user_id);

  RateLimitPolicy policy_;
  RedisPool pool_;
  std::string script_sha_;  // SHA-1 of Script(), computed once
};

}  // namespace dp
