#include "datapipelines/limits/redis_throttle_store.hpp"

#include <hiredis/hiredis.h>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

// KEYS[1] = the counter; ARGV[1] = its TTL in ms. Returns {count, remaining ms}. The TTL is set
// by the increment that creates the key, so a window never slides.
constexpr const char* kIncrementScript = R"lua(
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
)lua";

}  // namespace

RedisThrottleStore::RedisThrottleStore(const RedisUrl& url, RedisPoolOptions options)
    : pool_(url, options) {}

template <typename Fn>
auto RedisThrottleStore::Run(Fn&& fn) -> decltype(fn(std::declval<RedisConnection&>())) {
  try {
    return pool_.Run(std::forward<Fn>(fn));
  } catch (const RedisError&) {
    // Fail closed, as the request limiter does (REST API §12.3); the cause names no URL.
    throw DomainError(errc::kRateLimitUnavailable,
                      "The rate limiter is unavailable; retry shortly.",
                      Json{{"retry_after_seconds", 1}});
  }
}

ThrottleStore::Count RedisThrottleStore::Increment(const std::string& key, int64_t ttl_ms,
                                                   int64_t /*now_ms*/) {
  return Run([&](RedisConnection& connection) {
    RedisReply reply =
        connection.Command({"EVAL", kIncrementScript, "1", StoreKey(key), std::to_string(ttl_ms)});
    ThrowIfErrorReply(*reply, "throttle increment");
    if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2) {
      throw RedisError("throttle increment: unexpected reply", false);
    }
    return Count{reply->element[0]->integer, reply->element[1]->integer};
  });
}

int64_t RedisThrottleStore::RemainingMs(const std::string& key, int64_t /*now_ms*/) {
  return Run([&](RedisConnection& connection) {
    RedisReply reply = connection.Command({"PTTL", StoreKey(key)});
    ThrowIfErrorReply(*reply, "throttle ttl");
    return reply->integer > 0 ? static_cast<int64_t>(reply->integer) : int64_t{0};
  });
}

void RedisThrottleStore::Flag(const std::string& key, int64_t ttl_ms, int64_t /*now_ms*/) {
  Run([&](RedisConnection& connection) {
    RedisReply reply =
        connection.Command({"SET", StoreKey(key), "1", "PX", std::to_string(ttl_ms)});
    ThrowIfErrorReply(*reply, "throttle flag");
    return true;
  });
}

void RedisThrottleStore::Remove(const std::string& key) {
  Run([&](RedisConnection& connection) {
    RedisReply reply = connection.Command({"DEL", StoreKey(key)});
    ThrowIfErrorReply(*reply, "throttle remove");
    return true;
  });
}

}  // namespace dp
