#pragma once
// datapipelines://executions/{id} (the executions_get shape, application/json) and
// …/{id}/events (the recorded event log replayed as SSE text) — spec §7.1; ownership enforced
// by ExecutionService like every execution read.
#include <optional>
#include <string_view>

#include "datapipelines/mcp/resource_provider.hpp"

namespace dp {

class ExecutionService;

class ExecutionResources : public ResourceProvider {
 public:
  explicit ExecutionResources(ExecutionService& executions);

  std::string_view Kind() const override { return "executions"; }
  Json List(const Principal& principal) override;
  std::optional<Json> Read(const Principal& principal, std::string_view uri) override;
  Json UriTemplates() const override;

 private:
  ExecutionService& executions_;
};

}  // namespace dp
