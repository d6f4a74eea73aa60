#include "datapipelines/mcp/tools/datasource_tools.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/service/datasource_service.hpp"

namespace dp {
namespace {

using Operation = std::function<Json(DatasourceService&, const ToolCall&)>;

// Argument faults leave as -32602 (nothing leased, nothing ran); domain faults stay isError.
ToolHandler Handler(DatasourceService& datasources, Operation operation) {
  return [&datasources, operation = std::move(operation)](const ToolCall& call) {
    try {
      return operation(datasources, call);
    } catch (const DomainError& error) {
      if (error.code() == errc::kRequestInvalid) {
        throw JsonRpcFault(jsonrpc::kInvalidParams, std::string("Invalid params: ") + error.what());
      }
      throw;
    }
  };
}

const std::string& Name(const ToolCall& call) {
  return call.arguments["name"].get_ref<const std::string&>();
}

}  // namespace

void BindDatasourceTools(ToolCatalog& catalog, DatasourceService& datasources) {
  catalog.Bind("datasources_list", Handler(datasources, [](auto& service, const ToolCall& call) {
                 std::optional<std::string> dialect;
                 if (auto it = call.arguments.find("dialect"); it != call.arguments.end()) {
                   dialect = it->template get<std::string>();
                 }
                 return service.List(call.principal, dialect);
               }));
  catalog.Bind("datasources_get", Handler(datasources, [](auto& service, const ToolCall& call) {
                 return service.Get(call.principal, Name(call));
               }));
  catalog.Bind("datasources_test", Handler(datasources, [](auto& service, const ToolCall& call) {
                 return service.Test(call.principal, Name(call));
               }));
  catalog.Bind("datasources_get_schemas",
               Handler(datasources, [](auto& service, const ToolCall& call) {
                 return service.GetSchemas(call.principal, Name(call));
               }));
  catalog.Bind("datasources_get_tables",
               Handler(datasources, [](auto& service, const ToolCall& call) {
                 return service.GetTables(call.principal,
                                          DatasourceService::LocatorFromJson(call.arguments));
               }));
  catalog.Bind("datasources_get_columns",
               Handler(datasources, [](auto& service, const ToolCall& call) {
                 return service.GetColumns(call.principal,
                                           DatasourceService::LocatorFromJson(call.arguments));
               }));
  catalog.Bind("datasources_get_table_stats",
               Handler(datasources, [](auto& service, const ToolCall& call) {
                 return service.GetTableStats(call.principal,
                                              DatasourceService::LocatorFromJson(call.arguments));
               }));
  catalog.Bind("datasources_preview_rows",
               Handler(datasources, [](auto& service, const ToolCall& call) {
                 return service.PreviewRows(call.principal,
                                            DatasourceService::PreviewFromJson(call.arguments));
               }));
  catalog.Bind("sql_probe", Handler(datasources, [](auto& service, const ToolCall& call) {
                 return service.Probe(call.principal,
                                      DatasourceService::ProbeFromJson(call.arguments));
               }));
}

}  // namespace dp
