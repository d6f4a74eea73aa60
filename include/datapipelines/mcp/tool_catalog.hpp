#pragma once
// The served tool catalog: each catalogued definition (tool_definition.hpp) joined with its
// compiled input-schema validator and, once implemented, its handler. tools/list shows only
// entries with a handler — never a tool that does not work.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/mcp/json_schema_validator.hpp"
#include "datapipelines/mcp/tool_definition.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

struct ToolCall {
  const Principal& principal;
  const Json& arguments;
  const std::string& correlation_id;
  // notifications/progress for the request's _meta.progressToken; unset when the caller asked
  // for none or the response is not a stream.
  std::function<void(int64_t progress, int64_t total, const std::string& message)> progress =
      nullptr;
  // The HTTP request's DP-Result-TTL-Seconds header, when it had one.
  std::optional<std::string> result_ttl_header = std::nullopt;
};

// Returns the tool's JSON payload; throws DomainError for domain failures.
using ToolHandler = std::function<Json(const ToolCall&)>;

struct CatalogEntry {
  const ToolDefinition* definition = nullptr;
  Json input_schema;
  std::unique_ptr<JsonSchemaValidator> validator;
  ToolHandler handler;
};

class ToolCatalog {
 public:
  ToolCatalog();  // every definition, no handlers yet

  // Binds a handler; throws std::logic_error for a name that is not catalogued.
  void Bind(std::string_view name, ToolHandler handler);
  // nullptr when the name is unknown or not implemented in this build.
  const CatalogEntry* FindServed(std::string_view name) const;
  // The tools/list payload ({"tools": [...]}), rebuilt at each Bind (startup only).
  const Json& ListResult() const { return list_result_; }
  // ListResult() serialized once: tools/list answers splice these bytes.
  const std::string& ListResultText() const { return list_result_text_; }
  std::vector<const CatalogEntry*> Served() const;

 private:
  void RebuildListResult();

  std::vector<CatalogEntry> entries_;
  Json list_result_;
  std::string list_result_text_;
};

}  // namespace dp
