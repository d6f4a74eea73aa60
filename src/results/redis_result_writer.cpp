#include "datapipelines/results/redis_result_writer.hpp"

#include <hiredis/hiredis.h>

#include "datapipelines/results/redis_result_store.hpp"

namespace dp {
namespace {

// Batches sent but not yet acknowledged: enough to keep Redis busy while rows are read,
// few enough that the replies never back up into the socket.
constexpr std::size_t kMaxBatchesInFlight = 8;

void Unavailable(const std::exception& error) {
  // RedisError messages name the redacted URL only.
  throw ResultStoreUnavailable(std::string("redis result store write failed: ") + error.what());
}

}  // namespace

RedisResultWriter::RedisResultWriter(RedisPool& pool, std::string key, std::chrono::seconds ttl,
                                     std::size_t rows_per_push)
    : pool_(pool),
      key_(std::move(key)),
      staging_key_(RedisResultStore::RowsKey(key_) + ":writing"),
      ttl_ms_(std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(ttl).count())),
      rows_per_push_(rows_per_push == 0 ? 1 : rows_per_push) {
  try {
    lease_ = std::make_unique<RedisPool::Lease>(pool_);
  } catch (const RedisError& error) {
    Unavailable(error);
  }
  batch_.reserve(rows_per_push_ + 2);
}

RedisResultWriter::~RedisResultWriter() {
  if (committed_ || !lease_) return;
  // Abandoned mid-stream: replies may be unread, so the connection is never reused; the
  // staging list is dropped on a fresh one (its TTL removes it should that fail too).
  lease_->Discard();
  lease_.reset();
  if (!staged_) return;
  try {
    pool_.Run([&](RedisConnection& connection) { connection.Command({"DEL", staging_key_}); });
  } catch (const std::exception&) {
  }
}

void RedisResultWriter::Append(std::string row) {
  if (batch_.empty()) batch_ = {"RPUSH", staging_key_};
  batch_.push_back(std::move(row));
  if (batch_.size() - 2 >= rows_per_push_) SendBatch();
}

void RedisResultWriter::RunStep(const std::function<void()>& step) {
  const bool unsent = !staged_;
  try {
    step();
  } catch (const RedisError& error) {
    // Nothing of this result reached Redis yet (a first batch starts by clearing the staging
    // list): one retry on a fresh connection is safe, and saves the query's work from a
    // connection that broke (a restart) between its last use and now.
    if (!unsent || !error.connection_broken()) Unavailable(error);
    try {
      in_flight_ = 0;
      staged_ = false;
      lease_->Reconnect();
      step();
    } catch (const RedisError& again) {
      Unavailable(again);
    }
  }
}

void RedisResultWriter::SendBatch() {
  if (batch_.size() <= 2) return;
  RunStep([this] { SendBatchOnce(); });
}

void RedisResultWriter::SendBatchOnce() {
  const bool first = !staged_;
  RedisConnection& connection = lease_->connection();
  if (first) {
    // A stale staging list of an earlier writer of this key must not prefix these rows.
    connection.Append({"DEL", staging_key_});
    ++in_flight_;
  }
  connection.Append(batch_);
  ++in_flight_;
  if (first) {
    connection.Append({"PEXPIRE", staging_key_, ttl_ms_});
    ++in_flight_;
    staged_ = true;
  }
  connection.Flush();
  // The first batch is acknowledged before going on: a broken connection shows here, while
  // a retry is still safe, rather than batches later.
  ReadReplies(first ? 0 : kMaxBatchesInFlight);
  batch_.clear();
}

void RedisResultWriter::ReadReplies(std::size_t keep_in_flight) {
  RedisConnection& connection = lease_->connection();
  while (in_flight_ > keep_in_flight) {
    RedisReply reply = connection.Read();
    --in_flight_;
    ThrowIfErrorReply(*reply, "put");
  }
}

void RedisResultWriter::Commit(Json schema) {
  SendBatch();
  RunStep([&] { CommitOnce(schema); });  // unsent here only for an empty result
  committed_ = true;
  lease_.reset();  // the connection is in step again: back to the pool
}

void RedisResultWriter::CommitOnce(const Json& schema) {
  const std::string schema_key = RedisResultStore::SchemaKey(key_);
  const std::string rows_key = RedisResultStore::RowsKey(key_);
  ReadReplies(0);
  RedisConnection& connection = lease_->connection();
  connection.Append({"MULTI"});
  if (staged_) {
    connection.Append({"RENAME", staging_key_, rows_key});
  } else {
    connection.Append({"DEL", rows_key});  // an empty result replaces an older one
  }
  connection.Append({"SET", schema_key, schema.dump(), "PX", ttl_ms_});
  connection.Append({"PEXPIRE", rows_key, ttl_ms_});
  connection.Append({"EXEC"});
  for (int i = 0; i < 4; ++i) ThrowIfErrorReply(*connection.Read(), "put");
  RedisReply exec = connection.Read();
  if (exec->type != REDIS_REPLY_ARRAY || exec->elements != 3) {
    throw RedisError("put: transaction aborted", false);
  }
  for (std::size_t i = 0; i < exec->elements; ++i) ThrowIfErrorReply(*exec->element[i], "put");
}

}  // namespace dp
