#include "datapipelines/mcp/resources/pipeline_resources.hpp"

#include <charconv>

#include "datapipelines/service/pipelines/pipeline_service.hpp"

namespace dp {
namespace {

constexpr std::string_view kPipelineUriPrefix = "datapipelines://pipelines/";
constexpr int kPipelineListPageSize = 200;  // PipelineService's largest page

std::optional<int> PipelineVersionNumber(std::string_view text) {
  int value = 0;
  if (text.empty() || text.size() > 9) return std::nullopt;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1) return std::nullopt;
  return value;
}

}  // namespace

std::optional<PipelineResourceRef> ParsePipelineResourceUri(std::string_view uri) {
  if (uri.substr(0, kPipelineUriPrefix.size()) != kPipelineUriPrefix) return std::nullopt;
  std::string_view rest = uri.substr(kPipelineUriPrefix.size());
  size_t slash = rest.find('/');
  PipelineResourceRef ref{std::string(rest.substr(0, slash)), std::nullopt, false};
  if (slash == std::string_view::npos) return ref;
  std::string_view tail = rest.substr(slash + 1);
  if (tail == "parameters") {
    ref.parameters = true;
  } else if (tail.substr(0, 9) == "versions/" && PipelineVersionNumber(tail.substr(9))) {
    ref.version = PipelineVersionNumber(tail.substr(9));
  } else {
    ref.id = std::string(rest);  // reads as an unknown id: RESOURCE_NOT_FOUND
  }
  return ref;
}

PipelineResources::PipelineResources(PipelineService& pipelines) : pipelines_(pipelines) {}

Json PipelineResources::List(const Principal& principal) {
  Json descriptors = Json::array();
  PipelineListQuery query;
  query.window.limit = kPipelineListPageSize;
  for (bool more = true; more; query.window.offset += kPipelineListPageSize) {
    PipelineListing listing = pipelines_.List(principal, query);
    for (const Json& item : listing.items) {
      Json descriptor{{"uri", std::string(kPipelineUriPrefix) + item["id"].get<std::string>()},
                      {"name", item["name"]}};
      if (auto title = item.value("display_name", std::string()); !title.empty()) {
        descriptor["title"] = title;
      }
      std::string text = item.value("description", std::string());
      descriptor["description"] =
          text.empty() ? "Pipeline " + item["name"].get<std::string>() + " (working version)."
                       : text;
      descriptor["mimeType"] = "application/json";
      descriptors.push_back(std::move(descriptor));
    }
    more = listing.has_more;
  }
  return descriptors;
}

std::optional<Json> PipelineResources::Read(const Principal& principal, std::string_view uri) {
  auto ref = ParsePipelineResourceUri(uri);
  if (!ref) return std::nullopt;
  Json body = ref->parameters ? pipelines_.Parameters(principal, ref->id)
                              : pipelines_.Get(principal, ref->id, ref->version);
  return Json::array({TextResourceContents(uri, "application/json", body.dump())});
}

Json PipelineResources::UriTemplates() const {
  return Json::array(
      {{{"uriTemplate", "datapipelines://pipelines/{id}"},
        {"name", "pipeline"},
        {"description", "A pipeline's working version (the draft when one exists)."},
        {"mimeType", "application/json"}},
       {{"uriTemplate", "datapipelines://pipelines/{id}/versions/{version}"},
        {"name", "pipeline-version"},
        {"description", "One exact version of a pipeline."},
        {"mimeType", "application/json"}},
       {{"uriTemplate", "datapipelines://pipelines/{id}/parameters"},
        {"name", "pipeline-parameters"},
        {"description", "The parameters a pipeline's working version declares (derived too)."},
        {"mimeType", "application/json"}}});
}

}  // namespace dp
