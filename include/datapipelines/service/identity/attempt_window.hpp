#pragma once
// Fixed one-minute windows of attempts per key (a client address, a key id): the counter
// behind the login damper and the Argon2 verification bound, kept in a ThrottleStore (in
// process, or Redis shared by every instance) under `<prefix>:<key>`.
#include <cstdint>
#include <string>
#include <string_view>

#include "datapipelines/limits/throttle_store.hpp"

namespace dp {

class AttemptWindow {
 public:
  AttemptWindow(int per_minute, ThrottleStore& store, std::string prefix)
      : per_minute_(per_minute), store_(store), prefix_(std::move(prefix)) {}

  struct Verdict {
    bool allowed = true;
    int64_t retry_after_seconds = 0;
    bool first_refusal = false;  // the window's first refusal (the one worth an audit row)
  };
  // Counts one attempt for `key` at `now_ms`.
  Verdict Take(std::string_view key, int64_t now_ms);
  int per_minute() const { return per_minute_; }

 private:
  int per_minute_;
  ThrottleStore& store_;
  std::string prefix_;
};

}  // namespace dp
