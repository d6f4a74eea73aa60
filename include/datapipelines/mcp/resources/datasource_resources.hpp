#pragma once
// Datasource resources (spec §7.1, §7.2.3): datapipelines://datasources is the pinned
// workspace's visible set (bound + global) and datapipelines://datasources/{name} one
// datasource's metadata — the datasources_list / datasources_get shapes, which never carry a
// credential. Visibility is DatasourceService's: an ungranted name is its not-found.
#include <optional>
#include <string_view>

#include "datapipelines/mcp/resource_provider.hpp"

namespace dp {

class DatasourceService;

class DatasourceResources : public ResourceProvider {
 public:
  explicit DatasourceResources(DatasourceService& datasources);

  std::string_view Kind() const override { return "datasources"; }
  // The list resource, then one descriptor per visible datasource, by name.
  Json List(const Principal& principal) override;
  std::optional<Json> Read(const Principal& principal, std::string_view uri) override;
  Json UriTemplates() const override;

 private:
  DatasourceService& datasources_;
};

}  // namespace dp
