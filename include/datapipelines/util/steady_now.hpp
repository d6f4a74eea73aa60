#pragma once
// The monotonic clock: an injectable reading of it (adapters read time through it so tests
// can move it) and the elapsed milliseconds every duration is reported in.
#include <chrono>
#include <cstdint>
#include <functional>

namespace dp {

using SteadyNow = std::function<std::chrono::steady_clock::time_point()>;

// Whole milliseconds elapsed on the monotonic clock since `start` (a probe's or a check's
// duration as reported to the caller).
inline int64_t MillisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start)
      .count();
}

inline SteadyNow RealSteadyNow() {
  return [] { return std::chrono::steady_clock::now(); };
}

}  // namespace dp
