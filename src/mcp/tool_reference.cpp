#include "datapipelines/mcp/tool_reference.hpp"

#include <algorithm>

#include "datapipelines/mcp/tool_catalog.hpp"

namespace dp {
namespace {

std::string SchemaTypeText(const Json& schema) {
  auto type = schema.find("type");
  if (type == schema.end()) return "any";
  if (type->is_string()) return type->get<std::string>();
  std::string joined;
  for (const auto& t : *type) joined += (joined.empty() ? "" : " | ") + t.get<std::string>();
  return joined;
}

// One table row per argument; pipes and newlines would break the Markdown table.
std::string Cell(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

}  // namespace

std::string RenderToolReference(const ToolCatalog& catalog) {
  std::string out =
      "# Tool reference\n\n"
      "Generated from the server's tool catalog — do not edit by hand. It lists the tools this\n"
      "build serves; `tools/list` is always the truth.\n";
  for (const CatalogEntry* entry : catalog.Served()) {
    const ToolDefinition& d = *entry->definition;
    out += "\n## " + std::string(d.name()) + "\n\n";
    out += std::string(d.description) + "\n\n";
    out += "- Scope: `" + std::string(ToString(d.access().min_scope)) + "`; capability: `" +
           std::string(ToString(d.access().min_role)) + "`; " +
           (d.mutating() ? "mutating (audited as a write)" : "read-only") + "\n";
    const Json& properties = entry->input_schema.value("properties", Json::object());
    if (properties.empty()) {
      out += "- Arguments: none\n";
      continue;
    }
    const Json& required = entry->input_schema.value("required", Json::array());
    out += "\n| argument | type | required | description |\n|---|---|---|---|\n";
    for (const auto& [name, schema] : properties.items()) {
      bool is_required = std::find(required.begin(), required.end(), name) != required.end();
      out += "| `" + name + "` | " + SchemaTypeText(schema) + " | " + (is_required ? "yes" : "no") +
             " | " + Cell(schema.value("description", std::string())) + " |\n";
    }
  }
  return out;
}

}  // namespace dp
