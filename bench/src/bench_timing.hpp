#pragma once
// Timing helpers shared by the C++ benchmarks: a steady clock and the median of a few rounds
// (the machine is shared, so one round alone measures the neighbours as much as the code).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/domain/domain_error.hpp"

namespace dp::bench {

// The PostgreSQL the connector benches read: DP_BENCH_PG_URL, else the test services' URL.
// Never printed (it carries the password).
inline std::string BenchPostgresUrl() {
  for (const char* name : {"DP_BENCH_PG_URL", "DP_TEST_PG_URL"}) {
    const char* value = std::getenv(name);
    if (value && *value) return value;
  }
  throw std::runtime_error("set DP_BENCH_PG_URL or DP_TEST_PG_URL");
}

inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// CPU seconds of the whole process: on a shared machine, time spent preempted by neighbours is
// not charged, while every thread of ours (and of a JVM: JIT, GC) is.
inline double ProcessCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

inline double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

// "--name=value" → value, else the fallback.
inline long FlagValue(int argc, char** argv, std::string_view name, long fallback) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg(argv[i]);
    if (arg.size() > name.size() + 1 && arg.substr(0, name.size()) == name &&
        arg[name.size()] == '=') {
      return std::strtol(argv[i] + name.size() + 1, nullptr, 10);
    }
  }
  return fallback;
}

inline bool HasFlag(int argc, char** argv, std::string_view name) {
  for (int i = 1; i < argc; ++i) {
    if (name == argv[i]) return true;
  }
  return false;
}

// Runs a bench's body; a failure is reported on stderr (the code and message, never a URL)
// and becomes exit status 1.
template <typename Body>
int ReportFailures(Body body) {
  try {
    return body();
  } catch (const DomainError& e) {
    std::cerr << "bench: " << e.ToJson().dump() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "bench: " << e.what() << "\n";
  }
  return 1;
}

}  // namespace dp::bench
