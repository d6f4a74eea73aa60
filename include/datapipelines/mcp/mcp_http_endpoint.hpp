#pragma once
// POST /mcp — the Streamable HTTP transport (spec §3, protocol 2025-06-18 / 2025-11-25
// "Transports"), stateless: one JSON-RPC message per POST, answered application/json;
// notifications and client responses get 202; no Mcp-Session-Id is ever issued.
#include <chrono>
#include <optional>

#include "datapipelines/net/http_message.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class McpServer;
class RequestAuthenticator;

class McpHttpEndpoint {
 public:
  McpHttpEndpoint(McpServer& server, RequestAuthenticator& authenticator);
  HttpResponse Handle(const HttpRequest& request);
  // The I/O thread's try (Router inline attempt): a small message that needs neither the store
  // nor the network (ping, tools/list, initialize, …) from a key already validated in the
  // cache, under an in-process rate limiter, is answered here; nullopt sends the request to
  // Handle on the blocking pool, with nothing charged or recorded.
  std::optional<HttpResponse> TryHandleInline(const HttpRequest& request);

  // Bodies larger than this are never parsed on the I/O thread.
  static constexpr std::size_t kInlineBodyLimit = 4096;

 private:
  // The message of a POST, or the answer that ends it before any method runs.
  struct Message {
    Json json;
    std::optional<HttpResponse> answer;  // a malformed message, a notification, a response
  };
  static Message Parse(const HttpRequest& request);
  HttpResponse Dispatch(const HttpRequest& request, const Principal& principal);
  HttpResponse Answer(const Json& message, const HttpRequest& request, const Principal& principal);
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
