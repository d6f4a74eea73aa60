#include "datapipelines/store/store_outage.hpp"

#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

// A client waits this long before retrying: long enough for a restart, short enough that an
// agent does not give up on a blip.
constexpr int kUnavailableRetrySeconds = 5;
// A full disk needs an operator: clients back off longer.
constexpr int kStorageFullRetrySeconds = 30;

// Every refused request would otherwise log the same diagnosis: one line per second is enough.
void LogOutage(std::string_view backend, const std::string& why) {
  static std::atomic<int64_t> last_logged_s{0};
  const int64_t now_s = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count();
  int64_t last = last_logged_s.load(std::memory_order_relaxed);
  if (now_s == last || !last_logged_s.compare_exchange_strong(last, now_s)) return;
  spdlog::warn("metadata store ({}) cannot serve: {}", backend, why);
}

}  // namespace

void ThrowMetadataUnavailable(std::string_view backend, const std::string& why) {
  LogOutage(backend, why);
  throw DomainError(errc::kMetadataUnavailable,
                    "The metadata store cannot be reached right now; retry shortly.",
                    Json{{"retry_after_seconds", kUnavailableRetrySeconds}});
}

void ThrowMetadataStorageFull(std::string_view backend, const std::string& why) {
  LogOutage(backend, why);
  throw DomainError(errc::kMetadataStorageFull,
                    "The metadata store's disk is full; nothing was written. An operator must "
                    "free space.",
                    Json{{"retry_after_seconds", kStorageFullRetrySeconds}});
}

}  // namespace dp
