#pragma once
#include <chrono>
// POST /mcp — the Streamable HTTP transport (spec §3, protocol 2025-06-18 / 2025-11-25
// "Transports"), stateless: one JSON-RPC message per POST, answered application/json;
// notifications and client responses get 202; no Mcp-Session-Id is ever issued.
#include "datapipelines/auth/principal.hpp"
#include "datapipelines/net/http_message.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class McpServer;
class RequestAuthenticator;

class McpHttpEndpoint {
 public:
  McpHttpEndpoint(McpServer& server, RequestAuthenticator& authenticator);
  HttpResponse Handle(const HttpRequest& request);

 private:
  HttpResponse Dispatch(const HttpRequest& request, const Principal& principal);
  HttpResponse LongCall(Json message, const HttpRequest& request, const Principal& principal);
  static bool IsLongCall(const Json& message);
  static bool WantsProgress(const Json& message);
  static bool AcceptsEventStream(const HttpRequest& request);

  // How long a long call may take and still answer application/json.
  static constexpr std::chrono::milliseconds kStreamAfter{200};

  McpServer& server_;
  RequestAuthenticator& authenticator_;
};

}  // namespace dp
