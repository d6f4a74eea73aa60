// The MCP tool catalog as data: src/mcp/catalog/order.json (the spec's §6.1 list) and one
// <tool>.json per tool (its description and input schema), extracted from the spec text by
// tools/tool-catalog/extract.py and compiled in (cmake/embed_files.cmake); parsed once, on first
// use. The name, floors and mutating flag are the tool's operation row
// (service/identity/operation.hpp), which tests/unit/mcp_schema/tool_definitions_test.cpp holds
// equal to the files' scope and mutating.
#include "datapipelines/mcp/tool_definition.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "datapipelines/util/embedded_file.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {
namespace {

// At most this many tools (spec §6.1 lists 41); the fixed storage keeps every view stable.
constexpr std::size_t kMaxTools = 64;

// The parsed files and the definitions viewing them.
struct ParsedCatalog {
  std::array<std::string, kMaxTools> descriptions;
  std::array<std::string, kMaxTools> schemas;
  std::array<ToolDefinition, kMaxTools> tools;
  std::size_t size = 0;
};

// A missing or malformed file is a build defect: it fails the first catalog use loudly.
Json CatalogFile(std::string_view name) {
  std::string path = std::string(name) + ".json";
  for (const EmbeddedFile& file : EmbeddedToolCatalogFiles()) {
    if (file.path == path) return Json::parse(file.bytes);
  }
  throw std::logic_error("tool catalog: no embedded " + path);
}

Operation OperationNamed(std::string_view name) {
  for (const OperationAccess& row : AllOperations()) {
    if (row.name == name) return row.operation;
  }
  throw std::logic_error("tool catalog: " + std::string(name) + " has no operation row");
}

const ParsedCatalog& Catalog() {
  static const ParsedCatalog* const kCatalog = [] {
    // Built in place, since the definitions view its strings, and never destroyed, so no
    // static's destructor can outlive it.
    auto* catalog = new ParsedCatalog();
    Json order = CatalogFile("order");
    if (order.size() > kMaxTools) throw std::logic_error("tool catalog: raise kMaxTools");
    for (const Json& name : order) {
      std::size_t i = catalog->size++;
      Json file = CatalogFile(name.get<std::string>());
      catalog->descriptions[i] = file.at("description").get<std::string>();
      catalog->schemas[i] = file.at("inputSchema").dump();
      catalog->tools[i] = {OperationNamed(file.at("name").get<std::string>()),
                           catalog->descriptions[i], catalog->schemas[i]};
    }
    return catalog;
  }();
  return *kCatalog;
}

}  // namespace

std::span<const ToolDefinition> AllToolDefinitions() {
  const ParsedCatalog& catalog = Catalog();
  return {catalog.tools.data(), catalog.size};
}

bool IsDomainCheckedArgument(std::string_view tool, std::string_view argument) {
  static constexpr std::pair<std::string_view, std::string_view> kChecked[] = {
      {"pipelines_create", "name"},
      {"pipelines_update", "name"},
      {"templates_create", "id"},
  };
  for (const auto& [t, a] : kChecked) {
    if (t == tool && a == argument) return true;
  }
  return false;
}

const ToolDefinition* FindToolDefinition(std::string_view name) {
  for (const ToolDefinition& tool : AllToolDefinitions()) {
    if (tool.name() == name) return &tool;
  }
  return nullptr;
}

}  // namespace dp
