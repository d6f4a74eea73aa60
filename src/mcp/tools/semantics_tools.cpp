#include "datapipelines/mcp/tools/semantics_tools.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/service/semantics/semantics_service.hpp"

namespace dp {
namespace {

using SemanticsOperation = std::function<Json(SemanticsService&, const ToolCall&)>;

ToolHandler SemanticsHandler(SemanticsService& semantics, SemanticsOperation operation) {
  return [&semantics, operation = std::move(operation)](const ToolCall& call) {
    try {
      return operation(semantics, call);
    } catch (const DomainError& error) {
      if (error.code() == errc::kRequestInvalid) {
        throw JsonRpcFault(jsonrpc::kInvalidParams, std::string("Invalid params: ") + error.what());
      }
      throw;
    }
  };
}

}  // namespace

void BindSemanticsTools(ToolCatalog& catalog, SemanticsService& semantics) {
  catalog.Bind("semantics_record",
               SemanticsHandler(semantics, [](auto& service, const ToolCall& call) {
                 RecordFactRequest request = RecordFactRequest::FromJson(call.arguments);
                 request.via = "mcp";
                 request.correlation_id = call.correlation_id;
                 return service.Record(call.principal, request);
               }));
  catalog.Bind("semantics_list",
               SemanticsHandler(semantics, [](auto& service, const ToolCall& call) {
                 return service.List(call.principal, ListFactsRequest::FromJson(call.arguments));
               }));
  catalog.Bind(
      "semantics_retire", SemanticsHandler(semantics, [](auto& service, const ToolCall& call) {
        return service.Retire(call.principal, call.arguments["id"].get<std::string>(),
                              call.arguments["reason"].get<std::string>(), call.correlation_id);
      }));
}

}  // namespace dp
