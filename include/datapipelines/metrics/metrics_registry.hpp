#pragma once
// Counters and histograms by name and label set, rendered in the Prometheus text format
// (version 0.0.4). Label values must come from closed sets (observability §4.3): callers pass
// enum-like values, never ids or input text. Recording is one hash lookup under a mutex plus
// an atomic add; gauges are read at scrape time through collectors.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dp {

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class MetricCounter {
 public:
  void Add(double amount = 1);
  double Value() const;

 private:
  std::atomic<uint64_t> bits_{0};  // a double, updated by compare-exchange
};

class MetricHistogram {
 public:
  explicit MetricHistogram(const std::vector<double>& bounds);
  void Observe(double value);
  // Cumulative count per bound (the last entry is +Inf), and the sum.
  std::vector<uint64_t> CumulativeCounts() const;
  double Sum() const;
  const std::vector<double>& Bounds() const { return bounds_; }

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> counts_;  // per bucket, not cumulative; +Inf last
  MetricCounter sum_;
};

// A sample read at scrape time: a gauge, or a counter kept by its owner (type "counter").
struct GaugeSample {
  std::string name;
  std::string help;
  MetricLabels labels;
  double value = 0;
  std::string type = "gauge";
};

class MetricsRegistry {
 public:
  // Seconds buckets from 1 ms to 60 s, for request, tool and execution durations.
  static const std::vector<double>& DurationBuckets();

  MetricCounter& Counter(std::string_view name, std::string_view help, const MetricLabels& labels);
  MetricHistogram& Histogram(std::string_view name, std::string_view help,
                             const MetricLabels& labels,
                             const std::vector<double>& bounds = DurationBuckets());
  // Adds a collector called at every scrape; it appends the gauges it reads.
  void AddGaugeCollector(std::function<void(std::vector<GaugeSample>&)> collector);

  std::string RenderPrometheus() const;

 private:
  enum class Kind { kCounter, kHistogram };
  struct Family {
    Kind kind;
    std::string help;
    std::map<std::string, MetricLabels> labels;  // series key -> labels, in render order
    std::unordered_map<std::string, std::unique_ptr<MetricCounter>> counters;
    std::unordered_map<std::string, std::unique_ptr<MetricHistogram>> histograms;
  };
  Family& FamilyFor(std::string_view name, std::string_view help, Kind kind);

  mutable std::mutex mutex_;
  std::map<std::string, Family, std::less<>> families_;
  std::vector<std::function<void(std::vector<GaugeSample>&)>> collectors_;
};

}  // namespace dp
