#include "datapipelines/results/memory_result_store.hpp"

#include <algorithm>
#include <stdexcept>

#include "datapipelines/results/memory_result_writer.hpp"
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace dp {
namespace {

// What the entry costs beyond its rows: the map node, the shared block holding the result,
// the row vector's header. Measured on glibc/libstdc++ x86-64 and rounded up.
constexpr std::size_t kEntryOverhead = 256;
// A parsed schema takes about this many times the bytes of its JSON text.
constexpr std::size_t kSchemaDomFactor = 4;
// Freeing at least this much hands memory back to the operating system.
constexpr std::size_t kTrimAfterBytes = std::size_t{1} << 20;

// The heap block a string of `capacity` characters owns, as glibc's malloc rounds it (an
// 8-byte header, 16-byte granules, 32 bytes at least); short strings live inside the object.
std::size_t HeapBytes(std::size_t capacity) {
  constexpr std::size_t kInlineCapacity = 15;  // libstdc++'s small-string buffer
  if (capacity <= kInlineCapacity) return 0;
  return std::max<std::size_t>(32, (capacity + 1 + 8 + 15) & ~std::size_t{15});
}

int64_t CeilSeconds(std::chrono::steady_clock::duration remaining) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(remaining).count();
  return ms <= 0 ? 0 : (ms + 999) / 1000;
}

void CheckPageArgs(int64_t offset, int64_t limit) {
  if (offset < 0 || limit < 0) throw std::invalid_argument("offset and limit must be >= 0");
}

}  // namespace

MemoryResultStore::MemoryResultStore(MemoryResultStoreOptions options)
    : options_(std::move(options)),
      last_sweep_(options_.now()),
      next_expiry_(std::chrono::steady_clock::time_point::max()) {
  if (options_.sweep_on_timer && options_.sweep_interval.count() > 0) {
    sweeper_ = std::thread([this] { SweepLoop(); });
  }
}

MemoryResultStore::~MemoryResultStore() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (sweeper_.joinable()) sweeper_.join();
}

std::size_t MemoryResultStore::RowBytes(const std::string& row) {
  return sizeof(std::string) + HeapBytes(row.capacity());
}

std::size_t MemoryResultStore::EntryBytes(const std::string& key, const std::string& schema_text) {
  return kEntryOverhead + sizeof(std::string) + HeapBytes(key.size()) +
         kSchemaDomFactor * schema_text.size();
}

std::size_t MemoryResultStore::used_bytes() const {
  std::lock_guard lock(mutex_);
  return used_bytes_;
}

std::optional<ResultStore::Usage> MemoryResultStore::CurrentUsage() const {
  std::lock_guard lock(mutex_);
  return Usage{static_cast<int64_t>(used_bytes_ + reserved_bytes_),
               static_cast<int64_t>(entries_.size())};
}

std::unique_ptr<ResultWriter> MemoryResultStore::OpenWriter(const std::string& key,
                                                            std::chrono::seconds ttl) {
  if (ttl.count() <= 0) throw std::invalid_argument("result TTL must be positive");
  return std::make_unique<MemoryResultWriter>(*this, key, ttl);
}

bool MemoryResultStore::FitsLocked(std::size_t bytes) const {
  return used_bytes_ + reserved_bytes_ + bytes <= options_.max_bytes;
}

bool MemoryResultStore::Reserve(std::size_t bytes) {
  Doomed doomed;
  std::size_t freed = 0;
  {
    std::lock_guard lock(mutex_);
    if (!FitsLocked(bytes)) {
      // Only when something has expired: a full store of live results refuses in O(1).
      const auto now = options_.now();
      if (now >= next_expiry_) {
        const std::size_t before = used_bytes_;
        SweepLocked(now, doomed);
        freed = before - used_bytes_;
      }
    }
    if (FitsLocked(bytes)) {
      reserved_bytes_ += bytes;
    } else {
      bytes = 0;
    }
  }
  Free(doomed, freed);
  return bytes > 0;
}

void MemoryResultStore::Unreserve(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  reserved_bytes_ -= std::min(bytes, reserved_bytes_);
}

void MemoryResultStore::Publish(const std::string& key, std::shared_ptr<const StoredResult> stored,
                                std::size_t bytes, std::size_t reserved, std::chrono::seconds ttl) {
  Doomed doomed;  // declared before the lock: freed after it is released, even on a refusal
  std::lock_guard lock(mutex_);
  reserved_bytes_ -= std::min(reserved, reserved_bytes_);
  const auto now = options_.now();
  auto existing = entries_.find(key);
  std::size_t replaced = existing == entries_.end() ? 0 : existing->second.bytes;
  const bool sweep_due = now - last_sweep_ >= options_.sweep_interval;
  if ((!FitsLocked(bytes - std::min(bytes, replaced)) && now >= next_expiry_) || sweep_due) {
    SweepLocked(now, doomed);
    existing = entries_.find(key);
    replaced = existing == entries_.end() ? 0 : existing->second.bytes;
  }
  if (used_bytes_ - replaced + reserved_bytes_ + bytes > options_.max_bytes) {
    throw ResultStoreUnavailable(
        "memory result store is full: result needs " + std::to_string(bytes) + " bytes, " +
        std::to_string(options_.max_bytes -
                       std::min(options_.max_bytes, used_bytes_ - replaced + reserved_bytes_)) +
        " of " + std::to_string(options_.max_bytes) + " bytes free");
  }
  if (existing != entries_.end()) EraseLocked(existing, doomed);
  const auto expires_at = now + ttl;
  entries_[key] = Entry{std::move(stored), bytes, expires_at};
  used_bytes_ += bytes;
  next_expiry_ = std::min(next_expiry_, expires_at);
}

std::optional<ResultPage> MemoryResultStore::GetPage(const std::string& key, int64_t offset,
                                                     int64_t limit) {
  CheckPageArgs(offset, limit);
  std::shared_ptr<const StoredResult> result;
  std::chrono::steady_clock::duration remaining;
  Doomed doomed;
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return std::nullopt;
    auto now = options_.now();
    if (it->second.expires_at <= now) {
      EraseLocked(it, doomed);
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
  Doomed doomed;
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return false;
  bool live = it->second.expires_at > options_.now();
  EraseLocked(it, doomed);
  return live;
}

std::size_t MemoryResultStore::SweepExpired() {
  Doomed doomed;
  std::size_t freed = 0;
  {
    std::lock_guard lock(mutex_);
    const std::size_t before = used_bytes_;
    SweepLocked(options_.now(), doomed);
    freed = before - used_bytes_;
  }
  Free(doomed, freed);
  return freed;
}

void MemoryResultStore::SweepLoop() {
  std::unique_lock lock(mutex_);
  while (!stop_cv_.wait_for(lock, options_.sweep_interval, [this] { return stopping_; })) {
    lock.unlock();
    SweepExpired();
    lock.lock();
  }
}

void MemoryResultStore::SweepLocked(std::chrono::steady_clock::time_point now, Doomed& doomed) {
  next_expiry_ = std::chrono::steady_clock::time_point::max();
  for (auto it = entries_.begin(); it != entries_.end();) {
    auto next = std::next(it);
    if (it->second.expires_at <= now) {
      EraseLocked(it, doomed);
    } else {
      next_expiry_ = std::min(next_expiry_, it->second.expires_at);
    }
    it = next;
  }
  last_sweep_ = now;
}

void MemoryResultStore::EraseLocked(Entries::iterator it, Doomed& doomed) {
  used_bytes_ -= it->second.bytes;
  doomed.push_back(std::move(it->second.result));
  entries_.erase(it);
}

void MemoryResultStore::Free(Doomed& doomed, std::size_t bytes) {
  doomed.clear();  // the last reference frees the rows, outside the store's lock
#if defined(__GLIBC__)
  // The freed rows sit in the allocator's arenas: hand the pages back, or RSS never shrinks.
  if (bytes >= kTrimAfterBytes) malloc_trim(0);
#else
  (void)bytes;
#endif
}

}  // namespace dp
