#include "datapipelines/mcp/tools/execution_tools.hpp"

#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/mcp/tools/list_tool_window.hpp"
#include "datapipelines/service/executions/execution_service.hpp"

namespace dp {
namespace {

const std::string& ExecutionId(const Json& args) {
  return args["execution_id"].get_ref<const std::string&>();
}

}  // namespace

void BindExecutionTools(ToolCatalog& catalog, ExecutionService& executions) {
  catalog.Bind("pipelines_execute", [&executions](const ToolCall& call) {
    ExecuteRequest request;
    request.pipeline_id = call.arguments["id"].get<std::string>();
    request.version = OptionalIntField(call.arguments, "version");
    request.parameters = call.arguments.value("parameters", Json::object());
    request.surface = ExecutionSurface::kAgent;
    request.correlation_id = call.correlation_id;
    request.on_progress = call.progress;
    if (call.result_ttl_header) {
      request.ttl_seconds = ExecutionService::ParseResultTtlHeader(*call.result_ttl_header);
    }
    return executions.Execute(call.principal, request);
  });
  catalog.Bind("executions_list", [&executions](const ToolCall& call) {
    // No started_after / started_before either: the tool's schema has neither.
    ExecutionListQuery query = ExecutionListQuery::FromJson(
        call.arguments, kListToolWindow, ExecutionListQuery::StartedBounds::kIgnored);
    return executions.List(call.principal, query)["items"];
  });
  catalog.Bind("executions_get", [&executions](const ToolCall& call) {
    return executions.Get(call.principal, ExecutionId(call.arguments));
  });
  catalog.Bind("executions_get_result", [&executions](const ToolCall& call) {
    const Json& args = call.arguments;
    std::optional<int64_t> limit;
    if (auto l = OptionalIntField(args, "limit")) limit = *l;
    return executions.GetResult(call.principal, ExecutionId(args),
                                OptionalIntField(args, "offset").value_or(0), limit,
                                OptionalStringField(args, "format").value_or("json"));
  });
  catalog.Bind("executions_cancel", [&executions](const ToolCall& call) {
    return executions.Cancel(call.principal, ExecutionId(call.arguments), ExecutionSurface::kAgent);
  });
}

}  // namespace dp
