#include "datapipelines/metrics/metrics_registry.hpp"

#include <bit>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace dp {

namespace {

// A label value in the exposition format: backslash, quote and newline escaped.
std::string EscapeLabel(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string SeriesKey(const MetricLabels& labels) {
  std::string key;
  for (const auto& [name, value] : labels) {
    key += name;
    key.push_back('\x1f');
    key += value;
    key.push_back('\x1e');
  }
  return key;
}

std::string LabelText(const MetricLabels& labels, std::string_view extra_name = {},
                      std::string_view extra_value = {}) {
  if (labels.empty() && extra_name.empty()) return "";
  std::string out = "{";
  for (const auto& [name, value] : labels) {
    if (out.size() > 1) out.push_back(',');
    out += name + "=\"" + EscapeLabel(value) + "\"";
  }
  if (!extra_name.empty()) {
    if (out.size() > 1) out.push_back(',');
    out += std::string(extra_name) + "=\"" + std::string(extra_value) + "\"";
  }
  return out + "}";
}

std::string Number(double value) {
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (std::isnan(value)) return "NaN";
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

}  // namespace

void MetricCounter::Add(double amount) {
  uint64_t seen = bits_.load(std::memory_order_relaxed);
  while (!bits_.compare_exchange_weak(seen,
                                      std::bit_cast<uint64_t>(std::bit_cast<double>(seen) + amount),
                                      std::memory_order_relaxed)) {
  }
}

double MetricCounter::Value() const {
  return std::bit_cast<double>(bits_.load(std::memory_order_relaxed));
}

MetricHistogram::MetricHistogram(const std::vector<double>& bounds)
    : bounds_(bounds), counts_(new std::atomic<uint64_t>[bounds.size() + 1]) {
  for (std::size_t i = 0; i <= bounds_.size(); ++i) counts_[i] = 0;
}

void MetricHistogram::Observe(double value) {
  std::size_t bucket = 0;
  while (bucket < bounds_.size() && value > bounds_[bucket]) ++bucket;
  counts_[bucket].fetch_add(1, std::memory_order_relaxed);
  sum_.Add(value);
}

std::vector<uint64_t> MetricHistogram::CumulativeCounts() const {
  std::vector<uint64_t> out;
  uint64_t running = 0;
  for (std::size_t i = 0; i <= bounds_.size(); ++i) {
    running += counts_[i].load(std::memory_order_relaxed);
    out.push_back(running);
  }
  return out;
}

double MetricHistogram::Sum() const { return sum_.Value(); }

const std::vector<double>& MetricsRegistry::DurationBuckets() {
  static const std::vector<double> kBuckets = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                               0.5,   1,      2.5,   5,    10,    30,   60};
  return kBuckets;
}

MetricsRegistry::Family& MetricsRegistry::FamilyFor(std::string_view name, std::string_view help,
                                                    Kind kind) {
  auto it = families_.find(name);
  if (it == families_.end()) {
    it = families_.emplace(std::string(name), Family{kind, std::string(help), {}, {}, {}}).first;
  } else if (it->second.kind != kind) {
    throw std::logic_error("metric " + std::string(name) + " registered with two types");
  }
  return it->second;
}

MetricCounter& MetricsRegistry::Counter(std::string_view name, std::string_view help,
                                        const MetricLabels& labels) {
  std::string key = SeriesKey(labels);
  std::lock_guard lock(mutex_);
  Family& family = FamilyFor(name, help, Kind::kCounter);
  auto& slot = family.counters[key];
  if (!slot) {
    slot = std::make_unique<MetricCounter>();
    family.labels.emplace(key, labels);
  }
  return *slot;
}

MetricHistogram& MetricsRegistry::Histogram(std::string_view name, std::string_view help,
                                            const MetricLabels& labels,
                                            const std::vector<double>& bounds) {
  std::string key = SeriesKey(labels);
  std::lock_guard lock(mutex_);
  Family& family = FamilyFor(name, help, Kind::kHistogram);
  auto& slot = family.histograms[key];
  if (!slot) {
    slot = std::make_unique<MetricHistogram>(bounds);
    family.labels.emplace(key, labels);
  }
  return *slot;
}

void MetricsRegistry::AddGaugeCollector(std::function<void(std::vector<GaugeSample>&)> collector) {
  std::lock_guard lock(mutex_);
  collectors_.push_back(std::move(collector));
}

std::string MetricsRegistry::RenderPrometheus() const {
  std::vector<std::function<void(std::vector<GaugeSample>&)>> collectors;
  std::string out;
  {
    std::lock_guard lock(mutex_);
    collectors = collectors_;
    for (const auto& [name, family] : families_) {
      out += "# HELP " + name + " " + family.help + "\n";
      out += "# TYPE " + name + (family.kind == Kind::kCounter ? " counter\n" : " histogram\n");
      for (const auto& [key, labels] : family.labels) {
        if (family.kind == Kind::kCounter) {
          out += name + LabelText(labels) + " " + Number(family.counters.at(key)->Value()) + "\n";
          continue;
        }
        const MetricHistogram& histogram = *family.histograms.at(key);
        std::vector<uint64_t> counts = histogram.CumulativeCounts();
        for (std::size_t i = 0; i < counts.size(); ++i) {
          std::string bound =
              i < histogram.Bounds().size() ? Number(histogram.Bounds()[i]) : "+Inf";
          out += name + "_bucket" + LabelText(labels, "le", bound) + " " +
                 std::to_string(counts[i]) + "\n";
        }
        out += name + "_sum" + LabelText(labels) + " " + Number(histogram.Sum()) + "\n";
        out += name + "_count" + LabelText(labels) + " " + std::to_string(counts.back()) + "\n";
      }
    }
  }
  // Gauges outside the lock: a collector may take other locks (pools, stores).
  std::vector<GaugeSample> gauges;
  for (const auto& collect : collectors) collect(gauges);
  std::string last;
  for (const GaugeSample& gauge : gauges) {
    if (gauge.name != last) {
      out += "# HELP " + gauge.name + " " + gauge.help + "\n# TYPE " + gauge.name + " " +
             gauge.type + "\n";
      last = gauge.name;
    }
    out += gauge.name + LabelText(gauge.labels) + " " + Number(gauge.value) + "\n";
  }
  return out;
}

}  // namespace dp
