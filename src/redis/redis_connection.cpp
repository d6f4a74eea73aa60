#include "datapipelines/redis/redis_connection.hpp"

#include <hiredis/hiredis.h>

#include "datapipelines/redis/redis_error.hpp"
#include "datapipelines/util/socket_liveness.hpp"

namespace dp {
namespace {

timeval ToTimeval(std::chrono::milliseconds duration) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(duration.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((duration.count() % 1000) * 1000);
  return tv;
}

struct Argv {
  std::vector<const char*> pointers;
  std::vector<std::size_t> lengths;
  explicit Argv(const std::vector<std::string>& args) {
    pointers.reserve(args.size());
    lengths.reserve(args.size());
    for (const auto& arg : args) {
      pointers.push_back(arg.data());
      lengths.push_back(arg.size());
    }
  }
};

}  // namespace

void RedisReplyDeleter::operator()(redisReply* reply) const { freeReplyObject(reply); }

void ThrowIfErrorReply(const redisReply& reply, const std::string& what) {
  if (reply.type == REDIS_REPLY_ERROR) {
    throw RedisError(what + ": " + std::string(reply.str, reply.len), false);
  }
}

RedisConnection::RedisConnection(const RedisUrl& url, RedisTimeouts timeouts)
    : where_(url.Redacted()) {
  context_ = redisConnectWithTimeout(url.host.c_str(), url.port, ToTimeval(timeouts.connect));
  if (context_ == nullptr) throw RedisError(where_ + ": cannot allocate a connection", true);
  if (context_->err != 0) ThrowIo("connect");
  if (redisSetTimeout(context_, ToTimeval(timeouts.command)) != REDIS_OK) ThrowIo("set timeout");
  redisEnableKeepAlive(context_);
  if (!url.password.empty()) {
    std::vector<std::string> auth = {"AUTH"};
    if (!url.username.empty()) auth.push_back(url.username);
    auth.push_back(url.password);
    // Redis' AUTH errors never echo the password; our message names only the step.
    ThrowIfErrorReply(*Command(auth), where_ + ": AUTH");
  }
  if (url.db != 0)
    ThrowIfErrorReply(*Command({"SELECT", std::to_string(url.db)}), where_ + ": SELECT");
}

RedisConnection::~RedisConnection() {
  if (context_ != nullptr) redisFree(context_);
}

void RedisConnection::ThrowIo(const char* what) {
  std::string reason = context_ != nullptr && context_->err != 0 ? context_->errstr : "I/O error";
  throw RedisError(where_ + ": " + what + ": " + reason, true);
}

RedisReply RedisConnection::Command(const std::vector<std::string>& args) {
  Append(args);
  return Read();
}

void RedisConnection::Append(const std::vector<std::string>& args) {
  Argv argv(args);
  if (redisAppendCommandArgv(context_, static_cast<int>(args.size()), argv.pointers.data(),
                             argv.lengths.data()) != REDIS_OK) {
    ThrowIo("send");
  }
}

RedisReply RedisConnection::Read() {
  void* raw = nullptr;
  if (redisGetReply(context_, &raw) != REDIS_OK || raw == nullptr) ThrowIo("read");
  return RedisReply(static_cast<redisReply*>(raw));
}

void RedisConnection::Flush() {
  int done = 0;
  while (!done) {
    if (redisBufferWrite(context_, &done) != REDIS_OK) ThrowIo("send");
  }
}

bool RedisConnection::broken() const { return context_ == nullptr || context_->err != 0; }

bool RedisConnection::closed_by_peer() const {
  return context_ == nullptr || PeerHasClosed(context_->fd);
}

}  // namespace dp
