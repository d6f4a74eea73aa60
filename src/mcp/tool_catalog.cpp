#include "datapipelines/mcp/tool_catalog.hpp"

#include <stdexcept>

namespace dp {

ToolCatalog::ToolCatalog() {
  RebuildListResult();
  for (const ToolDefinition& definition : AllToolDefinitions()) {
    CatalogEntry entry;
    entry.definition = &definition;
    entry.input_schema = Json::parse(definition.input_schema_json);
    // Closed: an argument the tool does not declare is refused, never silently ignored.
    entry.validator = std::make_unique<JsonSchemaValidator>(entry.input_schema, true);
    entries_.push_back(std::move(entry));
  }
}

void ToolCatalog::Bind(std::string_view name, ToolHandler handler) {
  for (auto& entry : entries_) {
    if (entry.definition->name() == name) {
      entry.handler = std::move(handler);
      RebuildListResult();  // startup-only: tools/list then serves prebuilt bytes
      return;
    }
  }
  throw std::logic_error("tool not in the catalog: " + std::string(name));
}

const CatalogEntry* ToolCatalog::FindServed(std::string_view name) const {
  for (const auto& entry : entries_) {
    if (entry.definition->name() == name) return entry.handler ? &entry : nullptr;
  }
  return nullptr;
}

std::vector<const CatalogEntry*> ToolCatalog::Served() const {
  std::vector<const CatalogEntry*> served;
  for (const auto& entry : entries_) {
    if (entry.handler) served.push_back(&entry);
  }
  return served;
}

void ToolCatalog::RebuildListResult() {
  {
    Json tools = Json::array();
    for (const CatalogEntry* entry : Served()) {
      const ToolDefinition& d = *entry->definition;
      Json tool = {{"name", std::string(d.name())},
                   {"description", std::string(d.description)},
                   {"inputSchema", entry->input_schema}};
      tool["annotations"] = {{"readOnlyHint", !d.mutating()}};
      tools.push_back(std::move(tool));
    }
    list_result_ = Json{{"tools", std::move(tools)}};
  }
  list_result_text_ = list_result_.dump();
}

}  // namespace dp
