#pragma once
// POST /mcp — the Streamable HTTP transport (spec §3, protocol 2025-06-18 / 2025-11-25
// "Transports"), stateless: one JSON-RPC message per POST, answered application/json;
// notifications and client responses get 202; no Mcp-Session-Id is ever issued.
#include "datapipelines/auth/principal.hpp"
#include "datapipelines/net/http_message.hpp"

namespace dp {

class McpServer;
class RequestAuthenticator;

class McpHttpEndpoint {
 public:
  McpHttpEndpoint(McpServer& server, RequestAuthenticator& authenticator);
  HttpResponse Handle(const HttpRequest& request);

 private:
  HttpResponse Dispatch(const HttpRequest& request, const Principal& principal);

  McpServer& server_;
  RequestAuthenticator& authenticator_;
};

}  // namespace dp
