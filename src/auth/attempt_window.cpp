#include "datapipelines/auth/attempt_window.hpp"

#include <algorithm>

namespace dp {
namespace {
constexpr int64_t kWindowMs = 60 * 1000;
}  // namespace

AttemptWindow::AttemptWindow(int per_minute, std::size_t max_entries)
    : per_minute_(per_minute), max_entries_(std::max<std::size_t>(1, max_entries)) {}

AttemptWindow::Verdict AttemptWindow::Take(std::string_view key, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  auto it = windows_.find(std::string(key));
  if (it == windows_.end()) {
    if (windows_.size() >= max_entries_) {
      std::erase_if(windows_,
                    [&](const auto& item) { return now_ms - item.second.start_ms >= kWindowMs; });
    }
    if (windows_.size() >= max_entries_) {
      auto stalest = std::min_element(windows_.begin(), windows_.end(), [](auto& a, auto& b) {
        return a.second.start_ms < b.second.start_ms;
      });
      windows_.erase(stalest);
    }
    it = windows_.emplace(std::string(key), Window{now_ms, 0}).first;
  }
  Window& window = it->second;
  if (now_ms - window.start_ms >= kWindowMs) window = Window{now_ms, 0};
  ++window.count;
  Verdict verdict;
  if (window.count > per_minute_) {
    verdict.allowed = false;
    verdict.retry_after_seconds =
        std::max<int64_t>(1, (window.start_ms + kWindowMs - now_ms + 999) / 1000);
    verdict.first_refusal = window.count == per_minute_ + 1;
  }
  return verdict;
}

}  // namespace dp
