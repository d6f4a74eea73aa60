#include "datapipelines/mcp/tools/pipeline_tools.hpp"

#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/mcp/tools/list_tool_window.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"

namespace dp {
namespace {

PipelineWriteFlags AgentFlags(const Json& args) {
  PipelineWriteFlags flags;
  flags.surface = PipelineSurface::kAgent;
  flags.confirm_new_root = args.value("confirm_new_root", false);
  flags.door_acknowledged = args.value("door_acknowledged", false);
  return flags;
}

}  // namespace

void BindPipelineTools(ToolCatalog& catalog, PipelineService& pipelines) {
  catalog.Bind("pipelines_list", [&pipelines](const ToolCall& call) {
    PipelineListing listing = pipelines.List(
        call.principal, PipelineListQuery::FromJson(call.arguments, kListToolWindow));
    return listing.browse ? listing.BrowseJson() : listing.items;
  });
  catalog.Bind("pipelines_get", [&pipelines](const ToolCall& call) {
    return pipelines.Get(call.principal, call.arguments["id"].get<std::string>(),
                         OptionalIntField(call.arguments, "version"));
  });
  catalog.Bind("pipelines_create", [&pipelines](const ToolCall& call) {
    return pipelines.Create(call.principal, call.arguments, AgentFlags(call.arguments));
  });
  catalog.Bind("pipelines_update", [&pipelines](const ToolCall& call) {
    Json body = call.arguments;
    const std::string id = body["id"].get<std::string>();
    const std::string expected = body["expected_hash"].get<std::string>();
    body.erase("id");
    body.erase("expected_hash");
    return pipelines.Update(call.principal, id, expected, body, AgentFlags(call.arguments));
  });
}

}  // namespace dp
