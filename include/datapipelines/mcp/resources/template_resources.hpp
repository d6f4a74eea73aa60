#pragma once
// Template resources (spec §7.1, §7.2.2): datapipelines://templates/{id} is the working
// version as the templates_get projection (application/json);
// datapipelines://templates/{id}/versions/{version} is that version's body as Freemarker text.
// Both are one TemplateService::Get call, so workspace scoping is the service's.
#include <optional>
#include <string>
#include <string_view>

#include "datapipelines/mcp/resource_provider.hpp"

namespace dp {

class TemplateService;

struct TemplateResourceRef {
  std::string id;
  std::optional<int> version;
};

// nullopt when `uri` is not under datapipelines://templates/. The id is every segment after
// `templates` (ids hold slashes); a versions/{digits} suffix is recognised by the LAST two
// segments only, so a folder named `versions` stays a folder. The id grammar is not checked
// here: an id that names nothing is the service's not-found.
std::optional<TemplateResourceRef> ParseTemplateResourceUri(std::string_view uri);

class TemplateResources : public ResourceProvider {
 public:
  explicit TemplateResources(TemplateService& templates);

  std::string_view Kind() const override { return "templates"; }
  // One descriptor per template of the caller's workspace (its working version), by id.
  Json List(const Principal& principal) override;
  std::optional<Json> Read(const Principal& principal, std::string_view uri) override;
  Json UriTemplates() const override;

 private:
  TemplateService& templates_;
};

}  // namespace dp
