#include "datapipelines/results/redis_result_store.hpp"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "datapipelines/results/redis_result_writer.hpp"

namespace dp {
namespace {

std::string Text(const redisReply& reply) { return std::string(reply.str, reply.len); }

// Reads `count` replies; the pipeline is drained even after an error so the connection
// stays in step. Returns the last reply (EXEC's).
RedisReply ReadAll(RedisConnection& connection, std::size_t count, const std::string& what) {
  std::string first_error;
  RedisReply last;
  for (std::size_t i = 0; i < count; ++i) {
    last = connection.Read();
    if (last->type == REDIS_REPLY_ERROR && first_error.empty()) first_error = Text(*last);
  }
  if (!first_error.empty()) throw RedisError(what + ": " + first_error, false);
  return last;
}

// EXEC answers an array of per-command replies, or nil when the transaction was aborted.
const redisReply& CheckExec(const redisReply& exec, std::size_t expected, const std::string& what) {
  if (exec.type != REDIS_REPLY_ARRAY || exec.elements != expected) {
    throw RedisError(what + ": transaction aborted", false);
  }
  for (std::size_t i = 0; i < exec.elements; ++i) ThrowIfErrorReply(*exec.element[i], what);
  return exec;
}

}  // namespace

RedisResultStore::RedisResultStore(const RedisUrl& url, RedisResultStoreOptions options)
    : options_(options), pool_(url, options.pool) {
  if (options_.rows_per_push == 0) options_.rows_per_push = 1;
}

void RedisResultStore::Fail(const char* operation, const std::exception& error) const {
  // RedisError messages name the redacted URL only.
  throw ResultStoreUnavailable(std::string("redis result store ") + operation +
                               " failed: " + error.what());
}

std::unique_ptr<ResultWriter> RedisResultStore::OpenWriter(const std::string& key,
                                                           std::chrono::seconds ttl) {
  if (ttl.count() <= 0) throw std::invalid_argument("result TTL must be positive");
  return std::make_unique<RedisResultWriter>(pool_, key, ttl, options_.rows_per_push);
}

std::optional<ResultPage> RedisResultStore::GetPage(const std::string& key, int64_t offset,
                                                    int64_t limit) {
  if (offset < 0 || limit < 0) throw std::invalid_argument("offset and limit must be >= 0");
  limit = std::min(limit, std::numeric_limits<int64_t>::max() - offset);
  const std::string schema_key = SchemaKey(key), rows_key = RowsKey(key);
  try {
    return pool_.Run([&](RedisConnection& connection) -> std::optional<ResultPage> {
      // MULTI so the schema, count, TTL and rows are one consistent snapshot.
      connection.Append({"MULTI"});
      connection.Append({"GET", schema_key});
      connection.Append({"LLEN", rows_key});
      connection.Append({"PTTL", schema_key});
      std::size_t queued = 3;
      if (limit > 0) {  // LRANGE k o o-1 would be fine, but o=0 would mean "to the end"
        connection.Append(
            {"LRANGE", rows_key, std::to_string(offset), std::to_string(offset + limit - 1)});
        ++queued;
      }
      connection.Append({"EXEC"});
      RedisReply exec = ReadAll(connection, queued + 2, "get page");
      const redisReply& replies = CheckExec(*exec, queued, "get page");
      if (replies.element[0]->type != REDIS_REPLY_STRING) return std::nullopt;
      ResultPage page;
      try {
        page.schema = Json::parse(Text(*replies.element[0]));
      } catch (const Json::exception&) {
        throw RedisError("get page: stored schema is not JSON", false);
      }
      page.total_rows = replies.element[1]->integer;
      long long pttl = replies.element[2]->integer;
      page.ttl_remaining_seconds = pttl <= 0 ? 0 : (pttl + 999) / 1000;
      if (queued == 4) {
        const redisReply& rows = *replies.element[3];
        page.rows.reserve(rows.elements);
        for (std::size_t i = 0; i < rows.elements; ++i) page.rows.push_back(Text(*rows.element[i]));
      }
      return page;
    });
  } catch (const RedisError& error) {
    Fail("get page", error);
  }
}

bool RedisResultStore::Remove(const std::string& key) {
  try {
    return pool_.Run([&](RedisConnection& connection) {
      RedisReply reply = connection.Command({"DEL", SchemaKey(key), RowsKey(key)});
      ThrowIfErrorReply(*reply, "remove");
      return reply->integer > 0;
    });
  } catch (const RedisError& error) {
    Fail("remove", error);
  }
}

bool RedisResultStore::Ping() { return pool_.Ping(); }

}  // namespace dp
