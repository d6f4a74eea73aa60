#include "datapipelines/results/memory_result_store.hpp"

#include "datapipelines/results/memory_result_writer.hpp"

#include <algorithm>
#include <stdexcept>

namespace dp {
namespace {

// Rough per-entry and per-row bookkeeping cost, so many tiny rows are not charged as free.
constexpr std::size_t kEntryOverhead = 256;
constexpr std::size_t kRowOverhead = sizeof(std::string);

int64_t CeilSeconds(std::chrono::steady_clock::duration remaining) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(remaining).count();
  return ms <= 0 ? 0 : (ms + 999) / 1000;
}

void CheckPageArgs(int64_t offset, int64_t limit) {
  if (offset < 0 || limit < 0) throw std::invalid_argument("offset and limit must be >= 0");
}

}  // namespace

MemoryResultStore::MemoryResultStore(MemoryResultStoreOptions options)
    : options_(std::move(options)), last_sweep_(options_.now()) {}

std::size_t MemoryResultStore::EstimateBytes(const std::string& key, const std::string& schema_text,
                                             const StoredResult& result) {
  std::size_t bytes = kEntryOverhead + key.size() + schema_text.size();
  for (const auto& row : result.rows) bytes += RowBytes(row);
  return bytes;
}

std::size_t MemoryResultStore::used_bytes() const {
  std::lock_guard lock(mutex_);
  return used_bytes_;
}

std::optional<ResultStore::Usage> MemoryResultStore::CurrentUsage() const {
  std::lock_guard lock(mutex_);
  return Usage{static_cast<int64_t>(used_bytes_), static_cast<int64_t>(entries_.size())};
}

std::size_t MemoryResultStore::RowBytes(const std::string& row) {
  return row.size() + kRowOverhead;
}

std::unique_ptr<ResultWriter> MemoryResultStore::OpenWriter(const std::string& key,
                                                            std::chrono::seconds ttl) {
  if (ttl.count() <= 0) throw std::invalid_argument("result TTL must be positive");
  return std::make_unique<MemoryResultWriter>(*this, key, ttl);
}

void MemoryResultStore::Publish(const std::string& key, std::shared_ptr<const StoredResult> stored,
                                std::size_t bytes, std::chrono::seconds ttl) {
  std::lock_guard lock(mutex_);
  auto now = options_.now();
  auto existing = entries_.find(key);
  std::size_t replaced = existing == entries_.end() ? 0 : existing->second.bytes;
  if (used_bytes_ - replaced + bytes > options_.max_bytes ||
      now - last_sweep_ >= options_.sweep_interval) {
    SweepLocked(now);
    existing = entries_.find(key);
    replaced = existing == entries_.end() ? 0 : existing->second.bytes;
  }
  if (used_bytes_ - replaced + bytes > options_.max_bytes) {
    throw ResultStoreUnavailable("memory result store is full: result needs " +
                                 std::to_string(bytes) + " bytes, " +
                                 std::to_string(options_.max_bytes - (used_bytes_ - replaced)) +
                                 " of " + std::to_string(options_.max_bytes) + " bytes free");
  }
  if (existing != entries_.end()) EraseLocked(existing);
  entries_[key] = Entry{std::move(stored), bytes, now + ttl};
  used_bytes_ += bytes;
}

std::optional<ResultPage> MemoryResultStore::GetPage(const std::string& key, int64_t offset,
                                                     int64_t limit) {
  CheckPageArgs(offset, limit);
  std::shared_ptr<const StoredResult> result;
  std::chrono::steady_clock::duration remaining;
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return std::nullopt;
    auto now = options_.now();
    if (it->second.expires_at <= now) {
      EraseLocked(it);
      return std::nullopt;
    }
    result = it->second.result;
    remaining = it->second.expires_at - now;
  }
  // Slice outside the lock: the shared result is immutable.
  ResultPage page;
  page.schema = result->schema;
  page.total_rows = static_cast<int64_t>(result->rows.size());
  page.ttl_remaining_seconds = CeilSeconds(remaining);
  int64_t begin = std::min(offset, page.total_rows);
  int64_t end = begin + std::min(limit, page.total_rows - begin);
  page.rows.assign(result->rows.begin() + begin, result->rows.begin() + end);
  return page;
}

bool MemoryResultStore::Remove(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return false;
  bool live = it->second.expires_at > options_.now();
  EraseLocked(it);
  return live;
}

void MemoryResultStore::SweepLocked(std::chrono::steady_clock::time_point now) {
  for (auto it = entries_.begin(); it != entries_.end();) {
    auto next = std::next(it);
    if (it->second.expires_at <= now) EraseLocked(it);
    it = next;
  }
  last_sweep_ = now;
}

void MemoryResultStore::EraseLocked(std::unordered_map<std::string, Entry>::iterator it) {
  used_bytes_ -= it->second.bytes;
  entries_.erase(it);
}

}  // namespace dp
