#pragma once
// GET /readyz: every component the server needs in order to serve — the metadata store, the
// result store, the rate limiter, a staging tempdb — asked once per probe and timed. Component
// values stay the bare "UP"/"DOWN" strings of the health contract, so an unauthenticated probe
// names no host or URL; each component's latency sits beside them in `latency_ms`.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

class ReadinessProbe {
 public:
  // True when the component answers; a check that throws counts as DOWN.
  using Check = std::function<bool()>;

  struct Report {
    bool ready = true;  // every component UP
    Json body;          // {status, components: {name: UP|DOWN}, latency_ms: {name: ms}}
  };

  void Add(std::string name, Check check) {
    components_.emplace_back(std::move(name), std::move(check));
  }

  // Asks each component in the order added.
  Report Run() const;

 private:
  std::vector<std::pair<std::string, Check>> components_;
};

}  // namespace dp
