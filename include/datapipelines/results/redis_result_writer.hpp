#pragma once
// Streams one result into Redis while it is produced: rows go out in pipelined RPUSH batches
// to a staging list (with the result's TTL, so a writer that dies leaves nothing for long)
// on one leased connection, a bounded number of batches in flight; Commit renames the staging
// list onto the rows key and sets the schema and TTLs in one MULTI/EXEC, so readers never see
// a partial result. While nothing of the result has reached Redis (its first batch, or the
// commit of an empty result), a connection found broken is replaced and the step retried once.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "datapipelines/redis/redis_pool.hpp"
#include "datapipelines/results/result_store.hpp"

namespace dp {

class RedisResultWriter : public ResultWriter {
 public:
  // Throws RedisError when no connection can be leased.
  RedisResultWriter(RedisPool& pool, std::string key, std::chrono::seconds ttl,
                    std::size_t rows_per_push);
  ~RedisResultWriter() override;

  void Append(std::string row) override;
  void Commit(Json schema) override;

 private:
  // Runs one step of the write; while nothing of the result has reached Redis, once more on a
  // fresh connection when the first one turns out broken.
  void RunStep(const std::function<void()>& step);
  void SendBatch();
  void SendBatchOnce();
  void CommitOnce(const Json& schema);
  void ReadReplies(std::size_t keep_in_flight);

  RedisPool& pool_;
  std::string key_;
  std::string staging_key_;
  std::string ttl_ms_;
  std::size_t rows_per_push_;
  std::unique_ptr<RedisPool::Lease> lease_;
  std::vector<std::string> batch_;
  std::size_t in_flight_ = 0;  // replies not yet read
  bool staged_ = false;        // the staging list exists
  bool committed_ = false;
};

}  // namespace dp
