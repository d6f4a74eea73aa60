#pragma once
// An injectable monotonic clock: adapters read time through it so tests can move it.
#include <chrono>
#include <functional>

namespace dp {

using SteadyNow = std::function<std::chrono::steady_clock::time_point()>;

inline SteadyNow RealSteadyNow() {
  return [] { return std::chrono::steady_clock::now(); };
}

}  // namespace dp
