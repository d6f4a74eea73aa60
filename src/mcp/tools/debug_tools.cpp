#include "datapipelines/mcp/tools/debug_tools.hpp"

#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/service/executions/node_run_service.hpp"
#include "datapipelines/service/pipelines/check_run_service.hpp"

namespace dp {
namespace {

// A version names one exact version: {version: 0} is an invalid argument, never clamped.
std::optional<int> ExactVersion(const Json& args) {
  std::optional<int> version = OptionalIntField(args, "version");
  if (version && *version < 1) {
    throw JsonRpcFault(jsonrpc::kInvalidParams,
                       "Invalid params: version must be a positive integer (never clamped).");
  }
  return version;
}

Json ParametersOf(const Json& args) {
  auto it = args.find("parameters");
  return it == args.end() || it->is_null() ? Json::object() : *it;
}

}  // namespace

void BindDebugTools(ToolCatalog& catalog, NodeRunService& node_runs, CheckRunService& checks) {
  catalog.Bind("pipelines_execute_node", [&node_runs](const ToolCall& call) {
    NodeRunRequest request;
    request.pipeline_id = call.arguments["pipeline_id"].get<std::string>();
    request.node_id = call.arguments["node_id"].get<std::string>();
    request.version = ExactVersion(call.arguments);
    request.parameters = ParametersOf(call.arguments);
    request.agent_surface = true;
    return node_runs.Run(call.principal, request);
  });
  catalog.Bind("pipelines_run_checks", [&checks](const ToolCall& call) {
    CheckRunRequest request;
    request.pipeline_id = call.arguments["id"].get<std::string>();
    request.version = ExactVersion(call.arguments);
    request.parameters = ParametersOf(call.arguments);
    request.via = "mcp";
    request.correlation_id = call.correlation_id;
    return checks.Run(call.principal, request);
  });
}

}  // namespace dp
