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

class ResultStore {
 public:
  virtual ~ResultStore() = default;
  // Stores (replacing) the result under key; it expires after ttl. Throws
  // ResultStoreUnavailable when the backend cannot take it (including the memory cap).
  virtual void Put(const std::string& key, const StoredResult& result,
                   std::chrono::seconds ttl) = 0;
  // nullopt when absent or expired.
  virtual std::optional<ResultPage> GetPage(const std::string& key, int64_t offset,
                                            int64_t limit) = 0;
  virtual bool Remove(const std::string& key) = 0;
  virtual bool Ping() = 0;
  virtual std::string BackendName() const = 0;  // "memory" | "redis"
};

// "memory" (or empty) | "memory:<max-bytes>" | "redis://[:password@]host:port[/db]".
std::unique_ptr<ResultStore> OpenResultStore(const std::string& url);

}  // namespace dp
