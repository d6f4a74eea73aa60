#pragma once
// Fixed one-minute windows of attempts per key (a client address, a key id): the counter
// behind the login damper and the Argon2 verification bound. In-process, memory-bounded (at
// most `max_entries` keys; the stalest window is dropped first).
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace dp {

class AttemptWindow {
 public:
  AttemptWindow(int per_minute, std::size_t max_entries = 100000);

  struct Verdict {
    bool allowed = true;
    int64_t retry_after_seconds = 0;
    bool first_refusal = false;  // the window's first refusal (the one worth an audit row)
  };
  // Counts one attempt for `key` at `now_ms`.
  Verdict Take(std::string_view key, int64_t now_ms);
  int per_minute() const { return per_minute_; }

 private:
  struct Window {
    int64_t start_ms = 0;
    int count = 0;
  };
  int per_minute_;
  std::size_t max_entries_;
  std::mutex mutex_;
  std::unordered_map<std::string, Window> windows_;
};

}  // namespace dp
