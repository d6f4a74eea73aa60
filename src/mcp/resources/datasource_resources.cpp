#include "datapipelines/mcp/resources/datasource_resources.hpp"

#include <algorithm>
#include <string>

#include "datapipelines/service/datasources/datasource_service.hpp"

namespace dp {
namespace {

constexpr std::string_view kListUri = "datapipelines://datasources";
constexpr std::string_view kItemPrefix = "datapipelines://datasources/";
constexpr std::string_view kMimeType = "application/json";

Json DatasourceDescriptor(const Json& view) {
  const std::string name = view["name"].get<std::string>();
  std::string uri(kItemPrefix);
  uri += name;
  Json descriptor{{"uri", std::move(uri)}, {"name", name}};
  if (auto title = view.value("display_name", std::string()); !title.empty()) {
    descriptor["title"] = title;
  }
  std::string text = view.value("description", std::string());
  descriptor["description"] =
      text.empty() ? "Datasource " + name + " (metadata, never a credential)." : text;
  descriptor["mimeType"] = kMimeType;
  return descriptor;
}

}  // namespace

DatasourceResources::DatasourceResources(DatasourceService& datasources)
    : datasources_(datasources) {}

Json DatasourceResources::List(const Principal& principal) {
  Json views = datasources_.List(principal, std::nullopt);
  std::vector<Json> rows(views.begin(), views.end());
  std::sort(rows.begin(), rows.end(),
            [](const Json& a, const Json& b) { return a["name"] < b["name"]; });
  Json descriptors = Json::array();
  descriptors.push_back({{"uri", std::string(kListUri)},
                         {"name", "datasources"},
                         {"title", "Datasources"},
                         {"description", "Every datasource this workspace may use."},
                         {"mimeType", kMimeType}});
  for (const Json& view : rows) descriptors.push_back(DatasourceDescriptor(view));
  return descriptors;
}

std::optional<Json> DatasourceResources::Read(const Principal& principal, std::string_view uri) {
  if (uri == kListUri) {
    Json views = datasources_.List(principal, std::nullopt);
    return Json::array({TextResourceContents(uri, kMimeType, views.dump())});
  }
  if (uri.substr(0, kItemPrefix.size()) != kItemPrefix) return std::nullopt;
  std::string name(uri.substr(kItemPrefix.size()));
  return Json::array(
      {TextResourceContents(uri, kMimeType, datasources_.Get(principal, name).dump())});
}

Json DatasourceResources::UriTemplates() const {
  return Json::array({{{"uriTemplate", "datapipelines://datasources/{name}"},
                       {"name", "datasource"},
                       {"description", "One datasource's metadata (never a credential)."},
                       {"mimeType", "application/json"}}});
}

}  // namespace dp
