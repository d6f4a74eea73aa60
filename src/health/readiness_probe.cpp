#include "datapipelines/health/readiness_probe.hpp"

#include <chrono>
#include <cmath>

namespace dp {
namespace {

bool Answers(const ReadinessProbe::Check& check) {
  try {
    return check();
  } catch (...) {
    return false;  // a probe reports; it never fails the request that asked
  }
}

}  // namespace

ReadinessProbe::Report ReadinessProbe::Run() const {
  Report report;
  Json components = Json::object();
  Json latency = Json::object();
  for (const auto& [name, check] : components_) {
    const auto start = std::chrono::steady_clock::now();
    const bool up = Answers(check);
    const std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    components[name] = up ? "UP" : "DOWN";
    latency[name] = std::round(elapsed.count() * 1000) / 1000;  // microsecond resolution
    report.ready = report.ready && up;
  }
  report.body = {{"status", report.ready ? "UP" : "DOWN"},
                 {"components", std::move(components)},
                 {"latency_ms", std::move(latency)}};
  return report;
}

}  // namespace dp
