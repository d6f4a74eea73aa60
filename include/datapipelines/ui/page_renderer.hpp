#pragma once
// The UI's page templates (ui/templates/*.ftl), parsed once at start in the engine's
// auto-escaping html mode, and rendered against a JSON model. `layout.ftl` is a library of
// macros (the app shell, the ceremony card, the standard states) bound as `layout` in every page.
#include <map>
#include <memory>
#include <string>

#include "datapipelines/template/syntax/parsed_template.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class PageRenderer {
 public:
  PageRenderer();  // parses every embedded template; throws on a broken one (a build defect)

  // Renders `page` ("pipelines" for pipelines.ftl) against `model`.
  std::string Render(const std::string& page, const Json& model) const;
  bool Has(const std::string& page) const { return pages_.count(page) > 0; }

 private:
  std::map<std::string, std::shared_ptr<const ParsedTemplate>> pages_;
  std::shared_ptr<const ParsedTemplate> layout_;
};

}  // namespace dp
