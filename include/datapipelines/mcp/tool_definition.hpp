#pragma once
// The static MCP tool catalog (spec §6.1/§6.2): description and input schema exactly as the
// spec publishes them. The name, the two-axis floor (§4.1, auth §7.6) and the §14 mutating flag
// are the tool's row in the operation table (service/identity/operation.hpp).
#include <span>
#include <string_view>

#include "datapipelines/service/identity/operation.hpp"

namespace dp {

struct ToolDefinition {
  Operation operation;
  std::string_view description;
  std::string_view input_schema_json;  // JSON text; parse once at catalog build time

  const OperationAccess& access() const { return AccessOf(operation); }
  std::string_view name() const { return access().name; }
  bool mutating() const { return access().mutating; }  // every call writes mcp.tool.write (§14)
};

// All 41 tools, in §6.1 order. The storage is static; the span never dangles.
std::span<const ToolDefinition> AllToolDefinitions();

// True for an argument whose malformed shape the spec answers with a domain code rather
// than the schema refusal (a bare template id or pipeline name → template.validation.
// id_invalid / pipeline.validation.name_invalid with details.reason "folder_required"):
// the dispatcher lets its `pattern` failure through to the service, which refuses it.
bool IsDomainCheckedArgument(std::string_view tool, std::string_view argument);

// nullptr when no tool has that name.
const ToolDefinition* FindToolDefinition(std::string_view name);

}  // namespace dp
