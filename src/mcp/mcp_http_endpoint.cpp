#include "datapipelines/mcp/mcp_http_endpoint.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/service/request_authenticator.hpp"

namespace dp {
namespace {

HttpResponse JsonRpcResponse(int status, const Json& message) {
  HttpResponse response;
  response.status = status;
  response.body = message.dump();
  return response;
}

HttpResponse Accepted() {
  HttpResponse response;
  response.status = 202;
  response.content_type.clear();
  return response;
}

bool IsValidId(const Json& id) { return id.is_string() || id.is_number_integer(); }

}  // namespace

McpHttpEndpoint::McpHttpEndpoint(McpServer& server, RequestAuthenticator& authenticator)
    : server_(server), authenticator_(authenticator) {}

HttpResponse McpHttpEndpoint::Handle(const HttpRequest& request) {
  const std::string& correlation_id = request.correlation_id;
  if (auto version = request.headers.Get("MCP-Protocol-Version");
      version && !IsSupportedProtocolVersion(*version)) {
    return ErrorEnvelope(
        DomainError(errc::kProtocolVersionUnsupported,
                    "Unsupported MCP-Protocol-Version '" + std::string(*version) + "'.",
                    Json{{"supported", SupportedProtocolVersions()}}),
        correlation_id);
  }
  AuthenticatedRequest authenticated;
  try {
    authenticated = authenticator_.Authenticate(request.headers, request.remote_ip,
                                                CredentialPolicy::kApiKeyOnly);
  } catch (const DomainError& refusal) {
    return ErrorEnvelope(refusal, correlation_id);
  }

  HttpResponse response = Dispatch(request, authenticated.principal);
  AddRateLimitHeaders(response, authenticated.rate);
  return response;
}

HttpResponse McpHttpEndpoint::Dispatch(const HttpRequest& request, const Principal& principal) {
  Json message = Json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    return JsonRpcResponse(
        400, jsonrpc::Error(nullptr, jsonrpc::kParseError, "Parse error: body is not valid JSON."));
  }
  if (message.is_array()) {
    return JsonRpcResponse(
        400,
        jsonrpc::Error(nullptr, jsonrpc::kInvalidRequest,
                       "Invalid Request: batches are not supported; send one message per POST."));
  }
  if (!message.is_object() || message.value("jsonrpc", Json()) != "2.0") {
    return JsonRpcResponse(400, jsonrpc::Error(nullptr, jsonrpc::kInvalidRequest,
                                               "Invalid Request: not a JSON-RPC 2.0 message."));
  }
  bool has_method = message.contains("method");
  bool has_id = message.contains("id");
  if (!has_method) {
    // A client's response to a server request: accepted and ignored (we send none).
    if (has_id && (message.contains("result") || message.contains("error"))) return Accepted();
    return JsonRpcResponse(400, jsonrpc::Error(nullptr, jsonrpc::kInvalidRequest,
                                               "Invalid Request: missing 'method'."));
  }
  if (!message["method"].is_string()) {
    return JsonRpcResponse(
        400, jsonrpc::Error(has_id ? message["id"] : Json(nullptr), jsonrpc::kInvalidRequest,
                            "Invalid Request: 'method' must be a string."));
  }
  if (!has_id) return Accepted();  // a notification
  if (!IsValidId(message["id"])) {
    return JsonRpcResponse(400,
                           jsonrpc::Error(nullptr, jsonrpc::kInvalidRequest,
                                          "Invalid Request: 'id' must be a string or an integer."));
  }
  McpRequestContext context{principal, request.correlation_id, request.remote_ip};
  HttpResponse response;
  response.body = server_.HandleRequestText(message, context);
  return response;
}

}  // namespace dp
