#include "datapipelines/redis/redis_pool.hpp"

#include <hiredis/hiredis.h>

#include <string_view>

namespace dp {

RedisPool::RedisPool(RedisUrl url, RedisPoolOptions options)
    : url_(std::move(url)), options_(options) {
  if (options_.size < 1) options_.size = 1;
}

std::unique_ptr<RedisConnection> RedisPool::Connect() {
  return std::make_unique<RedisConnection>(url_, options_.timeouts);
}

std::unique_ptr<RedisConnection> RedisPool::Acquire() {
  std::unique_lock lock(mutex_);
  bool ready = available_.wait_for(lock, options_.acquire_timeout,
                                   [this] { return !idle_.empty() || open_ < options_.size; });
  if (!ready) {
    throw RedisError(url_.Redacted() + ": no free connection within " +
                         std::to_string(options_.acquire_timeout.count()) + " ms",
                     false);
  }
  if (!idle_.empty()) {
    auto connection = std::move(idle_.back());
    idle_.pop_back();
    if (!connection->closed_by_peer()) return connection;
    // Redis restarted since it was last used: a fresh connection takes its slot, so the
    // command meant for it does not fail.
  } else {
    ++open_;  // reserve the slot, connect without holding the lock
  }
  lock.unlock();
  try {
    return Connect();
  } catch (...) {
    Release(nullptr);
    throw;
  }
}

void RedisPool::Release(std::unique_ptr<RedisConnection> connection) {
  {
    std::lock_guard lock(mutex_);
    if (connection && !connection->broken()) {
      idle_.push_back(std::move(connection));
    } else {
      --open_;  // a broken connection is dropped; its slot frees up
    }
  }
  available_.notify_one();
}

RedisPool::Lease::Lease(RedisPool& pool) : pool_(pool), connection_(pool.Acquire()) {}

RedisPool::Lease::~Lease() { pool_.Release(std::move(connection_)); }

void RedisPool::Lease::Reconnect() {
  connection_.reset();  // keeps the slot: this lease still owns it
  connection_ = pool_.Connect();
}

bool RedisPool::Ping() {
  try {
    return Run([](RedisConnection& connection) {
      RedisReply reply = connection.Command({"PING"});
      return reply->type == REDIS_REPLY_STATUS &&
             std::string_view(reply->str, reply->len) == "PONG";
    });
  } catch (const RedisError&) {
    return false;
  }
}

}  // namespace dp
