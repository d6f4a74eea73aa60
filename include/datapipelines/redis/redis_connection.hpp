#pragma once
// One blocking hiredis connection (AUTH and SELECT done on connect), with timeouts.
// hiredis stays out of this header: replies are handed out as RedisReply.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "datapipelines/redis/redis_url.hpp"

struct redisContext;
struct redisReply;

namespace dp {

struct RedisReplyDeleter {
  void operator()(redisReply* reply) const;
};
using RedisReply = std::unique_ptr<redisReply, RedisReplyDeleter>;

struct RedisTimeouts {
  std::chrono::milliseconds connect{2000};
  std::chrono::milliseconds command{5000};
};

class RedisConnection {
 public:
  // Throws RedisError (connection_broken) when the server cannot be reached or refuses AUTH.
  RedisConnection(const RedisUrl& url, RedisTimeouts timeouts);
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Sends one command and returns its reply, which may be an error reply.
  // Throws RedisError(connection_broken=true) on I/O failure.
  RedisReply Command(const std::vector<std::string>& args);
  // Pipelining: queue commands with Append, then read one reply per command with Read.
  void Append(const std::vector<std::string>& args);
  RedisReply Read();
  // Writes every appended command to the socket now, without reading replies: lets the
  // server work on a pipeline while the caller produces the next commands.
  void Flush();
  bool broken() const;
  // The server closed this connection since it was last used (it restarted, or dropped an
  // idle client): checked by the pool before handing an idle connection out, at no round trip.
  bool closed_by_peer() const;

 private:
  [[noreturn]] void ThrowIo(const char* what);

  redisContext* context_ = nullptr;
  std::string where_;  // redacted URL for messages
};

// Throws RedisError(connection_broken=false) when reply is an error reply.
void ThrowIfErrorReply(const redisReply& reply, const std::string& what);

}  // namespace dp
