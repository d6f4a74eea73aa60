#pragma once
// In-process result store (embedded default): TTL-evicted on access and by an opportunistic
// sweep, capped by an estimate of the bytes it holds. Thread-safe.
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "datapipelines/results/result_store.hpp"
#include "datapipelines/util/steady_now.hpp"

namespace dp {

struct MemoryResultStoreOptions {
  std::size_t max_bytes = std::size_t{256} << 20;  // 256 MiB
  // A Put sweeps every expired entry when the last sweep is at least this old.
  std::chrono::milliseconds sweep_interval{10'000};
  SteadyNow now = RealSteadyNow();
};

class MemoryResultStore : public ResultStore {
 public:
  explicit MemoryResultStore(MemoryResultStoreOptions options = {});

  std::unique_ptr<ResultWriter> OpenWriter(const std::string& key,
                                           std::chrono::seconds ttl) override;
  std::optional<ResultPage> GetPage(const std::string& key, int64_t offset, int64_t limit) override;
  bool Remove(const std::string& key) override;
  bool Ping() override { return true; }
  std::string BackendName() const override { return "memory"; }

  std::size_t max_bytes() const { return options_.max_bytes; }
  std::size_t used_bytes() const;
  std::optional<Usage> CurrentUsage() const override;
  // Bytes a result is charged for (key, schema text, rows and per-row overhead).
  static std::size_t EstimateBytes(const std::string& key, const std::string& schema_text,
                                   const StoredResult& result);
  // Bytes one stored row is charged for.
  static std::size_t RowBytes(const std::string& row);
  // Whether a result of `bytes` could fit at all (the writer refuses early past it).
  bool Fits(std::size_t bytes) const { return bytes <= options_.max_bytes; }
  // Makes a finished result visible (replacing); ResultStoreUnavailable when it does not fit.
  void Publish(const std::string& key, std::shared_ptr<const StoredResult> result,
               std::size_t bytes, std::chrono::seconds ttl);

 private:
  struct Entry {
    std::shared_ptr<const StoredResult> result;
    std::size_t bytes = 0;
    std::chrono::steady_clock::time_point expires_at;
  };

  void SweepLocked(std::chrono::steady_clock::time_point now);
  void EraseLocked(std::unordered_map<std::string, Entry>::iterator it);

  MemoryResultStoreOptions options_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  std::size_t used_bytes_ = 0;
  std::chrono::steady_clock::time_point last_sweep_;
};

}  // namespace dp
