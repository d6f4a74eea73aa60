#pragma once
// In-process result store (the embedded default), capped in the bytes it really holds.
//
// What the cap counts: every row's string object and its heap block as the allocator rounds it,
// the row vector, the schema, the key and the entry's bookkeeping — so a 256 MiB cap costs about
// 256 MiB of memory, not twice that. Writers reserve bytes against the cap while their rows
// arrive (in chunks, so the lock is rarely taken): when the store is full a writer is refused
// on its first rows, before its query has done its work, and finished results stay readable —
// a refusal never sweeps or frees under the lock readers take. Expired results are swept on a
// timer (and before a refusal, when one has expired), freed outside the lock, and the memory
// is handed back to the operating system, so an idle server shrinks once its results expire.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "datapipelines/results/result_store.hpp"
#include "datapipelines/util/steady_now.hpp"

namespace dp {

struct MemoryResultStoreOptions {
  std::size_t max_bytes = std::size_t{256} << 20;  // 256 MiB
  // How often a timer sweeps expired results away, whether or not anything is written
  // (0: only writes sweep, at most this often — for tests on a fake clock).
  std::chrono::milliseconds sweep_interval{10'000};
  bool sweep_on_timer = true;
  SteadyNow now = RealSteadyNow();
};

class MemoryResultStore : public ResultStore {
 public:
  explicit MemoryResultStore(MemoryResultStoreOptions options = {});
  ~MemoryResultStore() override;

  std::unique_ptr<ResultWriter> OpenWriter(const std::string& key,
                                           std::chrono::seconds ttl) override;
  std::optional<ResultPage> GetPage(const std::string& key, int64_t offset, int64_t limit) override;
  bool Remove(const std::string& key) override;
  bool Ping() override { return true; }
  std::string BackendName() const override { return "memory"; }

  std::size_t max_bytes() const { return options_.max_bytes; }
  std::size_t used_bytes() const;  // held by published results
  std::optional<Usage> CurrentUsage() const override;

  // The bytes one stored row costs: its string object plus its heap block, if any.
  static std::size_t RowBytes(const std::string& row);
  // The bytes a result costs beside its rows (the entry, key, schema); each row's slot in the
  // row vector is part of RowBytes.
  static std::size_t EntryBytes(const std::string& key, const std::string& schema_text);

  // Writers' side. Reserve takes `bytes` more against the cap (false: the store is full even
  // after expired results went); Unreserve gives bytes back; Publish turns a writer's
  // reservation into a visible result of `bytes` (replacing one of the same key).
  bool Reserve(std::size_t bytes);
  void Unreserve(std::size_t bytes);
  void Publish(const std::string& key, std::shared_ptr<const StoredResult> result,
               std::size_t bytes, std::size_t reserved, std::chrono::seconds ttl);

  // Drops every expired result now (the timer's job); returns the bytes freed.
  std::size_t SweepExpired();

 private:
  struct Entry {
    std::shared_ptr<const StoredResult> result;
    std::size_t bytes = 0;
    std::chrono::steady_clock::time_point expires_at;
  };
  using Entries = std::unordered_map<std::string, Entry>;
  // Results leaving the store: destroyed after the lock is released.
  using Doomed = std::vector<std::shared_ptr<const StoredResult>>;

  bool FitsLocked(std::size_t bytes) const;
  void SweepLocked(std::chrono::steady_clock::time_point now, Doomed& doomed);
  void EraseLocked(Entries::iterator it, Doomed& doomed);
  void SweepLoop();
  static void Free(Doomed& doomed, std::size_t bytes);

  MemoryResultStoreOptions options_;
  mutable std::mutex mutex_;
  Entries entries_;
  std::size_t used_bytes_ = 0;      // published results
  std::size_t reserved_bytes_ = 0;  // writers still filling
  std::chrono::steady_clock::time_point last_sweep_;
  std::chrono::steady_clock::time_point next_expiry_;  // no entry expires before this
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::thread sweeper_;
};

}  // namespace dp
