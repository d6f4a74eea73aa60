#pragma once
#include <functional>
// The JSON-RPC side of MCP (spec §5, §6.3, §7, §9, §14): initialize, ping, tools, resources,
// prompts. Transport-free: McpHttpEndpoint feeds it parsed messages.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/mcp/resource_cursor.hpp"
#include "datapipelines/mcp/resource_provider.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class AuditLog;
class SkillDocs;

// JSON-RPC error codes (spec §9.1) and MCP's resource-not-found.
namespace jsonrpc {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kResourceNotFound = -32002;

Json Error(const Json& id, int code, const std::string& message);
Json Result(const Json& id, Json result);
}  // namespace jsonrpc

struct McpRequestContext {
  const Principal& principal;
  const std::string& correlation_id;
  std::string source_ip;
  // Set when the response is a stream: server-to-client notifications (notifications/progress)
  // sent while the call runs. Unset, nothing is sent before the final response.
  std::function<void(const Json& notification)> notify = nullptr;
  // The request's DP-Result-TTL-Seconds header, for the tools that write a result.
  std::optional<std::string> result_ttl_header = std::nullopt;
};

// The protocol revisions this server speaks, oldest first; the last is the newest.
const std::vector<std::string>& SupportedProtocolVersions();
bool IsSupportedProtocolVersion(std::string_view version);

class McpServer {
 public:
  // Told of every tool call as it is audited — the catalog's tool name (or "unknown"), the
  // outcome, the elapsed milliseconds (metrics). Must not block.
  using ToolCallObserver =
      std::function<void(std::string_view tool, std::string_view outcome, double elapsed_ms)>;

  // `cursor_signing_key` signs resources/list cursors; every instance of one deployment must
  // pass the same (Application derives it from the encryption key). Empty: a random key, good
  // for one process only (tests).
  McpServer(const ToolCatalog& catalog, AuditLog& audit, const SkillDocs& docs,
            std::string server_version, std::string cursor_signing_key = "",
            ToolCallObserver tool_call_observer = nullptr);

  // Startup only (not thread-safe against requests): one entity kind of §7.1 resources.
  // resources/list enumerates docs first, then the providers in §7.3 kind order.
  void AddResourceProvider(std::unique_ptr<ResourceProvider> provider);
  // resources/templates/list: the docs reference template, then each provider's (§7.3 order).
  Json ResourceTemplates() const;

  // A JSON-RPC request object (already known to carry jsonrpc/method/id) → response object.
  Json HandleRequest(const Json& request, const McpRequestContext& context);
  // The same response, serialized; static answers (tools/list) splice prebuilt bytes.
  // True for a request whose answer needs neither the store nor the network (initialize,
  // ping, tools/list, prompts/list, prompts/get, resources/templates/list): the transport
  // may answer it on its I/O thread.
  static bool AnswersWithoutBlocking(const Json& request);
  std::string HandleRequestText(const Json& request, const McpRequestContext& context);

 private:
  Json Initialize(const Json& params);
  Json CallTool(const Json& params, const McpRequestContext& context);
  Json ListResources(const Json& params, const McpRequestContext& context);
  Json ListDocResources() const;
  Json ReadResource(const Json& params, const McpRequestContext& context);
  std::optional<Json> ReadContents(const Principal& principal, const std::string& uri);
  std::optional<Json> ReadDocContents(const std::string& uri) const;
  void AuditResourceRead(const McpRequestContext& context, const std::string& uri,
                         std::string_view outcome, std::string_view code, double elapsed_ms);
  Json ToolResult(Json payload, bool is_error, const std::string& correlation_id) const;
  void AuditToolCall(const CatalogEntry* entry, std::string_view tool, const Json& arguments,
                     const McpRequestContext& context, std::string_view outcome,
                     std::string_view code, double elapsed_ms, bool tool_ran);

  const ToolCatalog& catalog_;
  AuditLog& audit_;
  const SkillDocs& docs_;
  std::string server_version_;
  ResourceCursor cursors_;
  std::vector<std::unique_ptr<ResourceProvider>> providers_;  // in §7.3 kind order
  ToolCallObserver tool_call_observer_;
};

// Thrown inside McpServer for protocol faults; HandleRequest turns it into a JSON-RPC error.
class JsonRpcFault : public std::runtime_error {
 public:
  JsonRpcFault(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

}  // namespace dp
