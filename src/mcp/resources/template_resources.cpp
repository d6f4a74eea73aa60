#include "datapipelines/mcp/resources/template_resources.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "datapipelines/service/templates/template_service.hpp"

namespace dp {
namespace {

constexpr std::string_view kTemplateUriPrefix = "datapipelines://templates/";
constexpr int kTemplateListPageSize = 200;  // TemplateService's largest page

std::vector<std::string_view> Split(std::string_view text) {
  std::vector<std::string_view> segments;
  std::size_t start = 0;
  for (std::size_t slash; (slash = text.find('/', start)) != std::string_view::npos;) {
    segments.push_back(text.substr(start, slash - start));
    start = slash + 1;
  }
  segments.push_back(text.substr(start));
  return segments;
}

// 1–9 decimal digits: a version number that fits an int.
std::optional<int> TemplateVersionNumber(std::string_view segment) {
  if (segment.empty() || segment.size() > 9) return std::nullopt;
  if (!std::all_of(segment.begin(), segment.end(),
                   [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return std::nullopt;
  }
  return std::stoi(std::string(segment));
}

std::string_view BodyMimeType(const Json& projection) {
  return projection.value("type", std::string("sql")) == "html" ? "text/x-freemarker-html"
                                                                : "text/x-freemarker-sql";
}

Json TemplateDescriptor(const Json& item) {
  const std::string id = item["id"].get<std::string>();
  Json descriptor{{"uri", std::string(kTemplateUriPrefix) + id}, {"name", id}};
  if (auto title = item.value("display_name", std::string()); !title.empty()) {
    descriptor["title"] = title;
  }
  std::string text = item.value("description", std::string());
  descriptor["description"] = text.empty() ? "Template " + id + " (working version)." : text;
  descriptor["mimeType"] = "application/json";
  return descriptor;
}

}  // namespace

std::optional<TemplateResourceRef> ParseTemplateResourceUri(std::string_view uri) {
  if (uri.substr(0, kTemplateUriPrefix.size()) != kTemplateUriPrefix) return std::nullopt;
  std::string_view rest = uri.substr(kTemplateUriPrefix.size());
  std::vector<std::string_view> segments = Split(rest);
  std::size_t n = segments.size();
  if (n >= 2 && segments[n - 2] == "versions") {
    if (auto version = TemplateVersionNumber(segments[n - 1])) {
      // "<id>/versions/<n>": the id is everything before the suffix (empty when none).
      std::size_t suffix = segments[n - 2].size() + segments[n - 1].size() + 1;
      std::size_t id_length = rest.size() - suffix;
      return TemplateResourceRef{std::string(rest.substr(0, id_length == 0 ? 0 : id_length - 1)),
                                 version};
    }
  }
  return TemplateResourceRef{std::string(rest), std::nullopt};
}

TemplateResources::TemplateResources(TemplateService& templates) : templates_(templates) {}

Json TemplateResources::List(const Principal& principal) {
  Json descriptors = Json::array();
  TemplateListQuery query;
  query.window.limit = kTemplateListPageSize;
  for (bool more = true; more; query.window.offset += kTemplateListPageSize) {
    TemplateListing listing = templates_.List(principal, query);
    for (const Json& item : listing.items) descriptors.push_back(TemplateDescriptor(item));
    more = listing.has_more;
  }
  return descriptors;
}

std::optional<Json> TemplateResources::Read(const Principal& principal, std::string_view uri) {
  auto ref = ParseTemplateResourceUri(uri);
  if (!ref) return std::nullopt;
  Json projection = templates_.Get(principal, ref->id, ref->version);
  if (!ref->version) {
    return Json::array({TextResourceContents(uri, "application/json", projection.dump())});
  }
  return Json::array(
      {TextResourceContents(uri, BodyMimeType(projection), projection["body"].get<std::string>())});
}

Json TemplateResources::UriTemplates() const {
  return Json::array({{{"uriTemplate", "datapipelines://templates/{+id}"},
                       {"name", "template"},
                       {"description", "A template's working version (the id is its folder path)."},
                       {"mimeType", "application/json"}},
                      {{"uriTemplate", "datapipelines://templates/{+id}/versions/{version}"},
                       {"name", "template-version"},
                       {"description", "The body of one version of a template."},
                       {"mimeType", "text/x-freemarker-sql"}}});
}

}  // namespace dp
