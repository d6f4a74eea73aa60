#pragma once
// datapipelines://pipelines/{id}, …/versions/{n} and …/parameters (spec §7.1, §7.2.1): the
// working version, one exact version and the parameter declarations, all application/json and
// workspace-scoped through PipelineService.
#include <optional>
#include <string>
#include <string_view>

#include "datapipelines/mcp/resource_provider.hpp"

namespace dp {

class PipelineService;

struct PipelineResourceRef {
  std::string id;
  std::optional<int> version;
  bool parameters = false;
};

// nullopt when `uri` is not under datapipelines://pipelines/.
std::optional<PipelineResourceRef> ParsePipelineResourceUri(std::string_view uri);

class PipelineResources : public ResourceProvider {
 public:
  explicit PipelineResources(PipelineService& pipelines);

  std::string_view Kind() const override { return "pipelines"; }
  Json List(const Principal& principal) override;
  std::optional<Json> Read(const Principal& principal, std::string_view uri) override;
  Json UriTemplates() const override;

 private:
  PipelineService& pipelines_;
};

}  // namespace dp
