#include "datapipelines/mcp/tools/endpoint_tools.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/service/endpoints/endpoint_service.hpp"

namespace dp {
namespace {

using EndpointOperation = std::function<Json(EndpointService&, const ToolCall&)>;

ToolHandler EndpointHandler(EndpointService& endpoints, EndpointOperation operation) {
  return [&endpoints, operation = std::move(operation)](const ToolCall& call) {
    try {
      return operation(endpoints, call);
    } catch (const DomainError& error) {
      if (error.code() == errc::kRequestInvalid) {
        throw JsonRpcFault(jsonrpc::kInvalidParams, std::string("Invalid params: ") + error.what());
      }
      throw;
    }
  };
}

}  // namespace

void BindEndpointTools(ToolCatalog& catalog, EndpointService& endpoints) {
  catalog.Bind("endpoints_create",
               EndpointHandler(endpoints, [](auto& service, const ToolCall& call) {
                 const Json& a = call.arguments;
                 CreateEndpointRequest request;
                 request.path = a["path"].get<std::string>();
                 request.pipeline = a["pipeline"].get<std::string>();
                 if (a.contains("timeout_seconds")) {
                   request.timeout_seconds = a["timeout_seconds"].get<int64_t>();
                 }
                 request.description = a.value("description", "");
                 request.correlation_id = call.correlation_id;
                 return service.Create(call.principal, request);
               }));
  catalog.Bind("endpoints_list",
               EndpointHandler(endpoints, [](auto& service, const ToolCall& call) {
                 return service.List(call.principal);
               }));
  catalog.Bind("endpoints_get", EndpointHandler(endpoints, [](auto& service, const ToolCall& call) {
                 return service.Get(call.principal, call.arguments["path"].get<std::string>());
               }));
  catalog.Bind("endpoints_delete",
               EndpointHandler(endpoints, [](auto& service, const ToolCall& call) {
                 return service.Delete(call.principal, call.arguments["path"].get<std::string>(),
                                       call.correlation_id);
               }));
}

}  // namespace dp
