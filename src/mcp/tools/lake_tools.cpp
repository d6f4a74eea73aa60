#include "datapipelines/mcp/tools/lake_tools.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/lake/lake_table_service.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"

namespace dp {
namespace {

using LakeOperation = Json (LakeTableService::*)(const Principal&, const Json&);

ToolHandler LakeHandler(LakeTableService& lake, LakeOperation operation) {
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
  catalog.Bind("lake_tables_register", LakeHandler(lake, &LakeTableService::Register));
  catalog.Bind("lake_tables_import", LakeHandler(lake, &LakeTableService::Import));
  catalog.Bind("lake_tables_unregister", LakeHandler(lake, &LakeTableService::Unregister));
}

}  // namespace dp
