#include "datapipelines/mcp/tools/lake_tools.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/lake/lake_table_service.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"

namespace dp {
namespace {

using Operation = Json (LakeTableService::*)(const Principal&, const Json&);

ToolHandler Handler(LakeTableService& lake, Operation operation) {
  return [&lake, operation](const ToolCall& call) {
    try {
      return (lake.*operation)(call.principal, call.arguments);
    } catch (const DomainError& error) {
      if (error.code() == errc::kRequestInvalid) {
        throw JsonRpcFault(jsonrpc::kInvalidParams, std::string("Invalid params: ") + error.what());
      }
      throw;
    }
  };
}

}  // namespace

void BindLakeTools(ToolCatalog& catalog, LakeTableService& lake) {
  catalog.Bind("lake_tables_register", Handler(lake, &LakeTableService::Register));
  catalog.Bind("lake_tables_import", Handler(lake, &LakeTableService::Import));
  catalog.Bind("lake_tables_unregister", Handler(lake, &LakeTableService::Unregister));
}

}  // namespace dp
