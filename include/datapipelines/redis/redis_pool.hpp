#pragma once
// A small blocking pool of Redis connections (mutex + condition variable), opened lazily.
// Run() retries once on a fresh connection when the first one turns out to be broken.
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "datapipelines/redis/redis_connection.hpp"
#include "datapipelines/redis/redis_error.hpp"
#include "datapipelines/redis/redis_url.hpp"

namespace dp {

struct RedisPoolOptions {
  int size = 4;
  RedisTimeouts timeouts;
  std::chrono::milliseconds acquire_timeout{5000};
};

class RedisPool {
 public:
  RedisPool(RedisUrl url, RedisPoolOptions options);

  // Calls fn(RedisConnection&). On RedisError with connection_broken, reconnects once and
  // calls fn again: fn must be safe to repeat (whole MULTI/EXEC blocks or idempotent reads).
  template <typename Fn>
  auto Run(Fn&& fn) -> decltype(fn(std::declval<RedisConnection&>())) {
    Lease lease(*this);
    try {
      return fn(lease.connection());
    } catch (const RedisError& error) {
      if (!error.connection_broken()) {
        lease.Discard();  // replies may be left unread: never reuse it
        throw;
      }
    } catch (...) {
      lease.Discard();
      throw;
    }
    lease.Reconnect();
    return fn(lease.connection());
  }

  const RedisUrl& url() const { return url_; }

  // True when the server answers PING with PONG; false on any failure (a readiness check).
  bool Ping();

  // Holds one connection for the duration of a Run (or of a streaming writer); gives it back,
  // or drops it when broken or discarded.
  class Lease {
   public:
    explicit Lease(RedisPool& pool);
    ~Lease();
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    RedisConnection& connection() { return *connection_; }
    void Reconnect();
    void Discard() { connection_.reset(); }

   private:
    RedisPool& pool_;
    std::unique_ptr<RedisConnection> connection_;
  };

 private:
  std::unique_ptr<RedisConnection> Acquire();
  void Release(std::unique_ptr<RedisConnection> connection);
  std::unique_ptr<RedisConnection> Connect();

  RedisUrl url_;
  RedisPoolOptions options_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<RedisConnection>> idle_;
  int open_ = 0;  // connections in use or idle, plus slots being connected
};

}  // namespace dp
