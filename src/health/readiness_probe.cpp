#include "datapipelines/health/readiness_probe.hpp"

#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace dp {

struct ReadinessProbe::Component {
  std::string name;
  Check check;
  std::mutex mutex;
  std::condition_variable answered;
  bool running = false;   // a check is in flight (perhaps started by an earlier probe)
  uint64_t answers = 0;   // checks finished so far
  bool up = false;        // the last answer
  double latency_ms = 0;  // how long the last answer took
};

namespace {

bool Answers(const ReadinessProbe::Check& check) {
  try {
    return check();
  } catch (...) {
    return false;  // a probe reports; it never fails the request that asked
  }
}

}  // namespace

ReadinessProbe::~ReadinessProbe() {
  for (const auto& component : components_) {
    std::unique_lock lock(component->mutex);
    component->answered.wait(lock, [&] { return !component->running; });
  }
}

void ReadinessProbe::Add(std::string name, Check check) {
  auto component = std::make_shared<Component>();
  component->name = std::move(name);
  component->check = std::move(check);
  components_.push_back(std::move(component));
}

ReadinessProbe::Report ReadinessProbe::Run() const {
  const auto deadline = std::chrono::steady_clock::now() + deadline_;
  // The answer count each component must pass: the in-flight check's, or the one started here.
  std::vector<uint64_t> awaited(components_.size());
  for (std::size_t i = 0; i < components_.size(); ++i) {
    const std::shared_ptr<Component>& component = components_[i];
    std::lock_guard lock(component->mutex);
    awaited[i] = component->answers;
    if (component->running) continue;
    component->running = true;
    std::thread([component] {
      const auto start = std::chrono::steady_clock::now();
      const bool up = Answers(component->check);
      const std::chrono::duration<double, std::milli> took =
          std::chrono::steady_clock::now() - start;
      std::lock_guard done(component->mutex);
      component->running = false;
      component->up = up;
      component->latency_ms = took.count();
      ++component->answers;
      component->answered.notify_all();
    }).detach();
  }
  Report report;
  Json components = Json::object();
  Json latency = Json::object();
  for (std::size_t i = 0; i < components_.size(); ++i) {
    Component& component = *components_[i];
    std::unique_lock lock(component.mutex);
    const bool answered = component.answered.wait_until(
        lock, deadline, [&] { return component.answers > awaited[i]; });
    const bool up = answered && component.up;
    components[component.name] = up ? "UP" : "DOWN";
    latency[component.name] =
        answered ? Json(std::round(component.latency_ms * 1000) / 1000) : Json(nullptr);
    report.ready = report.ready && up;
  }
  report.body = {{"status", report.ready ? "UP" : "DOWN"},
                 {"components", std::move(components)},
                 {"latency_ms", std::move(latency)}};
  return report;
}

}  // namespace dp
