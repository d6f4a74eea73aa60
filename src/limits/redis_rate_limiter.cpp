#include "datapipelines/limits/redis_rate_limiter.hpp"

#include <hiredis/hiredis.h>
#include <openssl/evp.h>

#include <cstdio>

#include "datapipelines/limits/memory_rate_limiter.hpp"

namespace dp {
namespace {

// KEYS[1] = dp:rl:<user>; ARGV = requests_per_second, requests_per_minute.
// Returns {allowed, remaining, retry_after_ms, ms_until_limiting_bucket_full, redis_now_ms}.
// Mirrors TokenBuckets::Take (memory_rate_limiter.cpp): keep the two in step.
constexpr const char* kScript = R"lua(
if redis.replicate_commands then redis.replicate_commands() end
local key = KEYS[1]
local rps = tonumber(ARGV[1])
local rpm = tonumber(ARGV[2])
local eps = 1e-9
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local st = redis.call('HMGET', key, 's', 'm', 'ts')
local s = tonumber(st[1]) or rps
local m = tonumber(st[2]) or rpm
local ts = tonumber(st[3]) or now
local rs = rps / 1000
local rm = rpm / 60000
local elapsed = math.max(0, now - ts)
s = math.min(rps, s + elapsed * rs)
m = math.min(rpm, m + elapsed * rm)
now = math.max(now, ts)
local s_short = s < 1 - eps
local m_short = m < 1 - eps
local allowed = 0
local wait = 0
if not s_short and not m_short then
  s = s - 1
  m = m - 1
  allowed = 1
else
  if s_short then wait = math.max(wait, math.ceil((1 - s) / rs - eps)) end
  if m_short then wait = math.max(wait, math.ceil((1 - m) / rm - eps)) end
end
local full_s = math.ceil((rps - s) / rs - eps)
local full_m = math.ceil((rpm - m) / rm - eps)
local full = math.max(full_s, full_m)
if allowed == 1 then
  if s < m then full = full_s elseif m < s then full = full_m end
else
  if s_short and not m_short then full = full_s elseif m_short and not s_short then full = full_m end
end
redis.call('HSET', key, 's', s, 'm', m, 'ts', now)
redis.call('PEXPIRE', key, math.max(full_s, full_m, 0) + 1000)
return {allowed, math.max(0, math.floor(math.min(s, m) + eps)), wait, math.max(0, full), now}
)lua";

std::string Sha1Hex(const std::string& text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha1(), nullptr);
  std::string hex;
  char byte[3];
  for (unsigned int i = 0; i < length; ++i) {
    std::snprintf(byte, sizeof byte, "%02x", digest[i]);
    hex += byte;
  }
  return hex;
}

bool IsNoScript(const redisReply& reply) {
  return reply.type == REDIS_REPLY_ERROR &&
         std::string(reply.str, reply.len).rfind("NOSCRIPT", 0) == 0;
}

}  // namespace

const std::string& RedisRateLimiter::Script() {
  static const std::string script = kScript;
  return script;
}

RedisRateLimiter::RedisRateLimiter(const RedisUrl& url, RateLimitPolicy policy,
                                   RedisPoolOptions options)
    : policy_(policy), pool_(url, options), script_sha_(Sha1Hex(Script())) {
  ValidateRateLimitPolicy(policy_);
}

RateDecision RedisRateLimiter::Acquire(const std::string& user_id) {
  try {
    return pool_.Run([&](RedisConnection& connection) { return Evaluate(connection, user_id); });
  } catch (const std::exception& error) {
    // Messages carry the redacted URL only.
    throw RateLimiterUnavailable(std::string("redis rate limiter unavailable: ") + error.what());
  }
}

RateDecision RedisRateLimiter::Evaluate(RedisConnection& connection, const std::string& user_id) {
  const std::string rps = std::to_string(policy_.requests_per_second);
  const std::string rpm = std::to_string(policy_.requests_per_minute);
  RedisReply reply = connection.Command({"EVALSHA", script_sha_, "1", UserKey(user_id), rps, rpm});
  if (IsNoScript(*reply)) {
    // First use on this server (or after SCRIPT FLUSH): EVAL also caches the script.
    reply = connection.Command({"EVAL", Script(), "1", UserKey(user_id), rps, rpm});
  }
  ThrowIfErrorReply(*reply, "rate limit script");
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 5) {
    throw RedisError("rate limit script: unexpected reply", false);
  }
  auto at = [&](std::size_t i) { return static_cast<int64_t>(reply->element[i]->integer); };
  RateDecision decision;
  decision.allowed = at(0) == 1;
  decision.limit = policy_.requests_per_second;
  decision.remaining = at(1);
  if (!decision.allowed) decision.retry_after_seconds = std::max<int64_t>(1, (at(2) + 999) / 1000);
  decision.reset_epoch_seconds = (at(4) + at(3) + 999) / 1000;  // Redis' clock, not ours
  return decision;
}

}  // namespace dp
