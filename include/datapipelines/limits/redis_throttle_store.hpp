#pragma once
// ThrottleStore in Redis (keys dp:th:<key>), timed by Redis's own expiry so every instance
// counts on one clock. Any Redis failure is a DomainError rate_limit.unavailable.
#include <string>

#include "datapipelines/limits/throttle_store.hpp"
#include "datapipelines/redis/redis_pool.hpp"

namespace dp {

class RedisThrottleStore : public ThrottleStore {
 public:
  // Does not connect: the pool opens connections on first use.
  RedisThrottleStore(const RedisUrl& url, RedisPoolOptions options);

  Count Increment(const std::string& key, int64_t ttl_ms, int64_t now_ms) override;
  int64_t RemainingMs(const std::string& key, int64_t now_ms) override;
  void Flag(const std::string& key, int64_t ttl_ms, int64_t now_ms) override;
  void Remove(const std::string& key) override;

  static std::string StoreKey(const std::string& key) { return "dp:th:" + key; }

 private:
  template <typename Fn>
  auto Run(Fn&& fn) -> decltype(fn(std::declval<RedisConnection&>()));

  RedisPool pool_;
};

}  // namespace dp
