#pragma once
// A small thread-safe map whose entries go stale after a TTL (auth.md §11.4). Stale entries
// stay readable so a refresh can reuse what did not change (e.g. a verified key hash).
// A generation counter lets a refresh that raced with an invalidation drop its result
// instead of resurrecting what was just invalidated.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace dp {

template <typename Value>
class TtlCache {
 public:
  struct Hit {
    Value value;
    bool fresh;
  };

  TtlCache(int64_t ttl_ms, std::size_t max_entries) : ttl_ms_(ttl_ms), max_entries_(max_entries) {}

  std::optional<Hit> Lookup(const std::string& key, int64_t now_ms) const {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return std::nullopt;
    return Hit{it->second.value, now_ms - it->second.stored_at_ms < ttl_ms_};
  }

  // Read before the store is consulted; pass to Put.
  uint64_t generation() const {
    std::lock_guard lock(mutex_);
    return generation_;
  }

  // Stores unless an invalidation happened since `seen_generation` was read.
  void Put(const std::string& key, Value value, int64_t now_ms, uint64_t seen_generation) {
    std::lock_guard lock(mutex_);
    if (seen_generation != generation_) return;
    if (entries_.size() >= max_entries_ && !entries_.contains(key)) EvictLocked(now_ms);
    entries_.insert_or_assign(key, Entry{std::move(value), now_ms});
  }

  void Erase(const std::string& key) {
    std::lock_guard lock(mutex_);
    ++generation_;
    entries_.erase(key);
  }

  template <typename Predicate>
  void EraseIf(Predicate predicate) {
    std::lock_guard lock(mutex_);
    ++generation_;
    std::erase_if(entries_, [&](const auto& item) { return predicate(item.second.value); });
  }

  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
  }

 private:
  struct Entry {
    Value value;
    int64_t stored_at_ms;
  };

  void EvictLocked(int64_t now_ms) {
    std::erase_if(entries_,
                  [&](const auto& item) { return now_ms - item.second.stored_at_ms >= ttl_ms_; });
    if (entries_.size() >= max_entries_) entries_.clear();
  }

  const int64_t ttl_ms_;
  const std::size_t max_entries_;
  mutable std::mutex mutex_;
  uint64_t generation_ = 0;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace dp
