#include "datapipelines/service/identity/attempt_window.hpp"

#include <algorithm>

namespace dp {
namespace {
constexpr int64_t kWindowMs = 60 * 1000;
}  // namespace

AttemptWindow::Verdict AttemptWindow::Take(std::string_view key, int64_t now_ms) {
  const ThrottleStore::Count window =
      store_.Increment(prefix_ + ":" + std::string(key), kWindowMs, now_ms);
  Verdict verdict;
  if (window.count > per_minute_) {
    verdict.allowed = false;
    verdict.retry_after_seconds = std::max<int64_t>(1, (window.remaining_ms + 999) / 1000);
    verdict.first_refusal = window.count == per_minute_ + 1;
  }
  return verdict;
}

}  // namespace dp
