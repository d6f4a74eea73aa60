#include "datapipelines/mcp/tools/datasource_tools.hpp"

#include <functional>
#include <type_traits>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/service/datasources/datasource_explorer.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"

namespace dp {
namespace {

// Argument faults leave as -32602 (nothing leased, nothing ran); domain faults stay isError.
template <typename Service>
ToolHandler DatasourceHandler(
    Service& service,
    std::type_identity_t<std::function<Json(Service&, const ToolCall&)>> operation) {
  return [&service, operation = std::move(operation)](const ToolCall& call) {
    try {
      return operation(service, call);
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

void BindDatasourceTools(ToolCatalog& catalog, DatasourceService& datasources,
                         DatasourceExplorer& explorer) {
  catalog.Bind("datasources_list",
               DatasourceHandler(datasources, [](auto& service, const ToolCall& call) {
                 std::optional<std::string> dialect;
                 if (auto it = call.arguments.find("dialect"); it != call.arguments.end()) {
                   dialect = it->template get<std::string>();
                 }
                 return service.List(call.principal, dialect);
               }));
  catalog.Bind("datasources_get",
               DatasourceHandler(datasources, [](auto& service, const ToolCall& call) {
                 return service.Get(call.principal, Name(call));
               }));
  catalog.Bind("datasources_test",
               DatasourceHandler(datasources, [](auto& service, const ToolCall& call) {
                 return service.Test(call.principal, Name(call));
               }));
  catalog.Bind("datasources_get_schemas",
               DatasourceHandler(explorer, [](auto& service, const ToolCall& call) {
                 return service.GetSchemas(call.principal, Name(call));
               }));
  catalog.Bind("datasources_get_tables",
               DatasourceHandler(explorer, [](auto& service, const ToolCall& call) {
                 return service.GetTables(call.principal, TableLocator::FromJson(call.arguments));
               }));
  catalog.Bind("datasources_get_columns",
               DatasourceHandler(explorer, [](auto& service, const ToolCall& call) {
                 return service.GetColumns(call.principal, TableLocator::FromJson(call.arguments));
               }));
  catalog.Bind("datasources_get_table_stats",
               DatasourceHandler(explorer, [](auto& service, const ToolCall& call) {
                 return service.GetTableStats(call.principal,
                                              TableLocator::FromJson(call.arguments));
               }));
  catalog.Bind("datasources_preview_rows",
               DatasourceHandler(explorer, [](auto& service, const ToolCall& call) {
                 return service.PreviewRows(call.principal,
                                            PreviewRequest::FromJson(call.arguments));
               }));
  catalog.Bind("sql_probe", DatasourceHandler(explorer, [](auto& service, const ToolCall& call) {
                 return service.Probe(call.principal, ProbeRequest::FromJson(call.arguments));
               }));
}

}  // namespace dp
