#include "datapipelines/limits/memory_throttle_store.hpp"

#include <algorithm>

namespace dp {

MemoryThrottleStore::MemoryThrottleStore(std::size_t max_entries)
    : max_entries_(std::max<std::size_t>(1, max_entries)) {}

void MemoryThrottleStore::MakeRoom(int64_t now_ms) {
  if (entries_.size() < max_entries_) return;
  std::erase_if(entries_, [&](const auto& item) { return item.second.expires_at_ms <= now_ms; });
  if (entries_.size() < max_entries_) return;
  // A flood of distinct keys: the entry that would expire first is the one worth least.
  entries_.erase(std::min_element(entries_.begin(), entries_.end(), [](auto& a, auto& b) {
    return a.second.expires_at_ms < b.second.expires_at_ms;
  }));
}

MemoryThrottleStore::Entry& MemoryThrottleStore::Fresh(const std::string& key, int64_t ttl_ms,
                                                       int64_t now_ms) {
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    MakeRoom(now_ms);
    it = entries_.emplace(key, Entry{}).first;
  }
  if (it->second.expires_at_ms <= now_ms) it->second = Entry{0, now_ms + ttl_ms};
  return it->second;
}

ThrottleStore::Count MemoryThrottleStore::Increment(const std::string& key, int64_t ttl_ms,
                                                    int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Entry& entry = Fresh(key, ttl_ms, now_ms);
  return Count{++entry.count, entry.expires_at_ms - now_ms};
}

int64_t MemoryThrottleStore::RemainingMs(const std::string& key, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  return it == entries_.end() ? 0 : std::max<int64_t>(0, it->second.expires_at_ms - now_ms);
}

void MemoryThrottleStore::Flag(const std::string& key, int64_t ttl_ms, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Entry& entry = Fresh(key, ttl_ms, now_ms);
  entry = Entry{1, now_ms + ttl_ms};
}

void MemoryThrottleStore::Remove(const std::string& key) {
  std::lock_guard lock(mutex_);
  entries_.erase(key);
}

}  // namespace dp
