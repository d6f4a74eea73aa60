#pragma once
// GET /readyz: every component the server needs in order to serve — the metadata store, the
// result store, the rate limiter, a staging tempdb — asked at once and timed. Component
// values stay the bare "UP"/"DOWN" strings of the health contract, so an unauthenticated probe
// names no host or URL; each component's latency sits beside them in `latency_ms`.
//
// The checks run side by side, each on a thread of its own, and the probe answers by its
// deadline whatever they do: a frozen dependency (a stopped Redis holds a socket open and says
// nothing) is reported DOWN when the deadline passes instead of holding the orchestrator's
// probe for the length of a socket timeout. A check still running from an earlier probe is
// not started again, so a hung dependency costs one thread, not one per probe.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

class ReadinessProbe {
 public:
  // True when the component answers; a check that throws counts as DOWN.
  using Check = std::function<bool()>;

  struct Report {
    bool ready = true;  // every component UP
    Json body;          // {status, components: {name: UP|DOWN}, latency_ms: {name: ms|null}}
  };

  // No longer than the rate limiter's own wait, so a probe never outlasts a request.
  static constexpr std::chrono::milliseconds kDefaultDeadline{1500};

  explicit ReadinessProbe(std::chrono::milliseconds deadline = kDefaultDeadline)
      : deadline_(deadline) {}
  // Waits for checks still in flight: they reach the stores the server is about to close.
  ~ReadinessProbe();
  ReadinessProbe(ReadinessProbe&&) = default;
  ReadinessProbe& operator=(ReadinessProbe&&) = default;

  void Add(std::string name, Check check);

  // Asks every component at once; one that has not answered by the deadline is DOWN, its
  // latency null. Components are reported in the order added.
  Report Run() const;

 private:
  struct Component;  // shared with the thread running its check, which may outlive a probe

  std::vector<std::shared_ptr<Component>> components_;
  std::chrono::milliseconds deadline_;
};

}  // namespace dp
