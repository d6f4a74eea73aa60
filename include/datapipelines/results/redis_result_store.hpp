#pragma once
// Redis result store (production). Layout per result key:
//   dp:result:<key>:schema  STRING  the schema JSON
//   dp:result:<key>:rows    LIST    one row JSON per element
// Rows are streamed to a staging list while the result is produced and published with the
// schema in one MULTI/EXEC with the same TTL (RedisResultWriter).
#include <chrono>
#include <memory>
#include <string>

#include "datapipelines/redis/redis_pool.hpp"
#include "datapipelines/results/result_store.hpp"

namespace dp {

struct RedisResultStoreOptions {
  RedisPoolOptions pool;
  std::size_t rows_per_push = 1000;  // rows per RPUSH while a result is written
};

class RedisResultStore : public ResultStore {
 public:
  // Does not connect: the pool opens connections on first use.
  explicit RedisResultStore(const RedisUrl& url, RedisResultStoreOptions options = {});

  std::unique_ptr<ResultWriter> OpenWriter(const std::string& key,
                                           std::chrono::seconds ttl) override;
  std::optional<ResultPage> GetPage(const std::string& key, int64_t offset, int64_t limit) override;
  bool Remove(const std::string& key) override;
  bool Ping() override;
  std::string BackendName() const override { return "redis"; }

  static std::string SchemaKey(const std::string& key) { return "dp:result:" + key + ":schema"; }
  static std::string RowsKey(const std::string& key) { return "dp:result:" + key + ":rows"; }

 private:
  [[noreturn]] void Fail(const char* operation, const std::exception& error) const;

  RedisResultStoreOptions options_;
  RedisPool pool_;
};

}  // namespace dp
