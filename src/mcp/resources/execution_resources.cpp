#include "datapipelines/mcp/resources/execution_resources.hpp"

#include <string>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/service/executions/execution_service.hpp"

namespace dp {
namespace {

constexpr std::string_view kExecutionUriPrefix = "datapipelines://executions/";

}  // namespace

ExecutionResources::ExecutionResources(ExecutionService& executions) : executions_(executions) {}

Json ExecutionResources::List(const Principal& principal) {
  Json descriptors = Json::array();
  for (const Json& item : executions_.ListForResources(principal)) {
    const std::string id = item["execution_id"];
    descriptors.push_back({{"uri", std::string(kExecutionUriPrefix) + id},
                           {"name", id},
                           {"title", item["pipeline_name"].get<std::string>() + " v" +
                                         std::to_string(item["version"].get<int>()) + " — " +
                                         item["status"].get<std::string>()},
                           {"description",
                            "Execution record (status, timing, node_stats, "
                            "failure); its event log is …/events."},
                           {"mimeType", "application/json"}});
  }
  return descriptors;
}

std::optional<Json> ExecutionResources::Read(const Principal& principal, std::string_view uri) {
  if (uri.substr(0, kExecutionUriPrefix.size()) != kExecutionUriPrefix) return std::nullopt;
  std::string rest(uri.substr(kExecutionUriPrefix.size()));
  const std::string suffix = "/events";
  if (rest.size() > suffix.size() &&
      rest.compare(rest.size() - suffix.size(), suffix.size(), suffix) == 0) {
    std::string id = rest.substr(0, rest.size() - suffix.size());
    return Json::array(
        {TextResourceContents(uri, "text/event-stream", executions_.EventsText(principal, id))});
  }
  if (rest.find('/') != std::string::npos) {
    throw DomainError(errc::kExecutionNotFound, "No such execution resource.",
                      Json{{"uri", std::string(uri)}});
  }
  return Json::array(
      {TextResourceContents(uri, "application/json", executions_.Get(principal, rest).dump())});
}

Json ExecutionResources::UriTemplates() const {
  return Json::array({{{"uriTemplate", "datapipelines://executions/{execution_id}"},
                       {"name", "execution"},
                       {"description",
                        "An execution's record: status, timing, node_stats, the "
                        "resolved parameters, the failure record."},
                       {"mimeType", "application/json"}},
                      {{"uriTemplate", "datapipelines://executions/{execution_id}/events"},
                       {"name", "execution-events"},
                       {"description", "The execution's event log replayed as SSE text."},
                       {"mimeType", "text/event-stream"}}});
}

}  // namespace dp
