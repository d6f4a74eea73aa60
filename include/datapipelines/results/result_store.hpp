#pragma once
// The result store port (DESIGN §6): a caller result kept for a TTL and read by page.
// Adapters: in-process (TTL-evicted, memory-capped) and Redis (hiredis, TTL keys).
// Every call blocks; run on the blocking pool.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

// One stored result: the schema envelope and rows, each row a serialized JSON array.
struct StoredResult {
  Json schema = Json::object();
  std::vector<std::string> rows;
};

struct ResultPage {
  Json schema = Json::object();
  std::vector<std::string> rows;  // rows[offset, offset+limit)
  int64_t total_rows = 0;
  int64_t ttl_remaining_seconds = 0;
};

class ResultStoreUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A result handed to the store while it is produced (the caller node's drain): the executor
// never holds a large result whole, and a remote store's writes overlap the read. Readers see
// nothing before Commit; a writer destroyed uncommitted leaves nothing behind.
class ResultWriter {
 public:
  virtual ~ResultWriter() = default;
  // Throws ResultStoreUnavailable when the backend cannot take more (including the memory cap).
  virtual void Append(std::string row) = 0;
  // Publishes schema and rows under the key (replacing), expiring ttl after now.
  virtual void Commit(Json schema) = 0;
};

class ResultStore {
 public:
  virtual ~ResultStore() = default;
  // The TTL is fixed here, at write time; throws std::invalid_argument unless it is positive.
  virtual std::unique_ptr<ResultWriter> OpenWriter(const std::string& key,
                                                   std::chrono::seconds ttl) = 0;
  // Stores (replacing) a whole result under key through a writer.
  void Put(const std::string& key, const StoredResult& result, std::chrono::seconds ttl);
  // nullopt when absent or expired.
  virtual std::optional<ResultPage> GetPage(const std::string& key, int64_t offset,
                                            int64_t limit) = 0;
  virtual bool Remove(const std::string& key) = 0;
  virtual bool Ping() = 0;
  virtual std::string BackendName() const = 0;  // "memory" | "redis"
  // Bytes and results held, where the store can tell cheaply (the in-process one); nullopt
  // for a shared store whose size is the server's business (Redis: its own INFO).
  struct Usage {
    int64_t bytes = 0;
    int64_t results = 0;
  };
  virtual std::optional<Usage> CurrentUsage() const { return std::nullopt; }
};

// "memory" (or empty) | "memory:<max-bytes>" | "redis://[:password@]host:port[/db]".
// `memory_sweep_interval`: how often the in-memory store drops expired results.
std::unique_ptr<ResultStore> OpenResultStore(
    const std::string& url, std::chrono::seconds memory_sweep_interval = std::chrono::seconds(10));

}  // namespace dp
