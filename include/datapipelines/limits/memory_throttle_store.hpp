#pragma once
// ThrottleStore in one process: a map of expiring entries on the caller's clock, bounded to
// `max_entries` (expired entries go first, then the one expiring soonest), thread-safe.
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

#include "datapipelines/limits/throttle_store.hpp"

namespace dp {

class MemoryThrottleStore : public ThrottleStore {
 public:
  explicit MemoryThrottleStore(std::size_t max_entries = 200000);

  Count Increment(const std::string& key, int64_t ttl_ms, int64_t now_ms) override;
  int64_t RemainingMs(const std::string& key, int64_t now_ms) override;
  void Flag(const std::string& key, int64_t ttl_ms, int64_t now_ms) override;
  void Remove(const std::string& key) override;

 private:
  struct Entry {
    int64_t count = 0;
    int64_t expires_at_ms = 0;
  };
  Entry& Fresh(const std::string& key, int64_t ttl_ms, int64_t now_ms);
  void MakeRoom(int64_t now_ms);

  std::size_t max_entries_;
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace dp
