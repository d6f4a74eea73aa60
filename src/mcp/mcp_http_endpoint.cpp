#include "datapipelines/mcp/mcp_http_endpoint.hpp"

#include <future>
#include <thread>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/net/event_stream.hpp"
#include "datapipelines/service/identity/request_authenticator.hpp"

namespace dp {
namespace {

std::optional<std::string> ResultTtlHeader(const HttpRequest& request) {
  auto value = request.headers.Get("DP-Result-TTL-Seconds");
  if (!value) return std::nullopt;
  return std::string(*value);
}

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
    authenticated = authenticator_.Authenticate(RequestCredentials::FromHeaders(request.headers),
                                                request.remote_ip, CredentialPolicy::kApiKeyOnly,
                                                request.path);
  } catch (const DomainError& refusal) {
    return ErrorEnvelope(refusal, correlation_id);
  }

  HttpResponse response = Dispatch(request, authenticated.principal);
  AddRateLimitHeaders(response, authenticated.rate);
  return response;
}

std::optional<HttpResponse> McpHttpEndpoint::TryHandleInline(const HttpRequest& request) {
  if (request.body.size() > kInlineBodyLimit) return std::nullopt;
  if (auto version = request.headers.Get("MCP-Protocol-Version");
      version && !IsSupportedProtocolVersion(*version)) {
    return std::nullopt;
  }
  Message message = Parse(request);
  if (!message.answer && !server_.AnswersWithoutBlocking(message.json)) return std::nullopt;
  std::optional<AuthenticatedRequest> authenticated;
  try {
    authenticated = authenticator_.AuthenticateCached(
        RequestCredentials::FromHeaders(request.headers), CredentialPolicy::kApiKeyOnly);
  } catch (const DomainError& refusal) {  // over the rate limit: an answer of its own
    return ErrorEnvelope(refusal, request.correlation_id);
  }
  if (!authenticated) return std::nullopt;
  HttpResponse response = message.answer ? std::move(*message.answer)
                                         : Answer(message.json, request, authenticated->principal);
  AddRateLimitHeaders(response, authenticated->rate);
  return response;
}

HttpResponse McpHttpEndpoint::Dispatch(const HttpRequest& request, const Principal& principal) {
  Message message = Parse(request);
  if (message.answer) return std::move(*message.answer);
  if (IsLongCall(message.json) && AcceptsEventStream(request)) {
    return LongCall(std::move(message.json), request, principal);
  }
  return Answer(message.json, request, principal);
}

HttpResponse McpHttpEndpoint::Answer(const Json& message, const HttpRequest& request,
                                     const Principal& principal) {
  McpRequestContext context{principal, request.correlation_id, request.remote_ip};
  context.result_ttl_header = ResultTtlHeader(request);
  HttpResponse response;
  response.body = server_.HandleRequestText(message, context);
  return response;
}

McpHttpEndpoint::Message McpHttpEndpoint::Parse(const HttpRequest& request) {
  auto refuse = [](HttpResponse response) { return Message{Json(), std::move(response)}; };
  JsonBody parsed = ParseJsonBody(request.body, request.max_json_depth);
  if (parsed.fault == JsonBodyFault::kTooDeep) {
    return refuse(JsonRpcResponse(
        400, jsonrpc::Error(nullptr, jsonrpc::kParseError,
                            "Parse error: body nests deeper than " +
                                std::to_string(request.max_json_depth) + " levels.")));
  }
  Json message = std::move(parsed.value);
  if (message.is_discarded()) {
    return refuse(JsonRpcResponse(400, jsonrpc::Error(nullptr, jsonrpc::kParseError,
                                                      "Parse error: body is not valid JSON.")));
  }
  if (message.is_array()) {
    return refuse(JsonRpcResponse(
        400,
        jsonrpc::Error(nullptr, jsonrpc::kInvalidRequest,
                       "Invalid Request: batches are not supported; send one message per POST.")));
  }
  if (!message.is_object() || message.value("jsonrpc", Json()) != "2.0") {
    return refuse(
        JsonRpcResponse(400, jsonrpc::Error(nullptr, jsonrpc::kInvalidRequest,
                                            "Invalid Request: not a JSON-RPC 2.0 message.")));
  }
  bool has_method = message.contains("method");
  bool has_id = message.contains("id");
  if (!has_method) {
    // A client's response to a server request: accepted and ignored (we send none).
    if (has_id && (message.contains("result") || message.contains("error"))) {
      return refuse(Accepted());
    }
    return refuse(JsonRpcResponse(400, jsonrpc::Error(nullptr, jsonrpc::kInvalidRequest,
                                                      "Invalid Request: missing 'method'.")));
  }
  if (!message["method"].is_string()) {
    // Echo only an id JSON-RPC allows: an object or array id is not one to answer with.
    bool echo = has_id && IsValidId(message["id"]);
    return refuse(JsonRpcResponse(
        400, jsonrpc::Error(echo ? message["id"] : Json(nullptr), jsonrpc::kInvalidRequest,
                            "Invalid Request: 'method' must be a string.")));
  }
  if (!has_id) return refuse(Accepted());  // a notification
  if (!IsValidId(message["id"])) {
    return refuse(JsonRpcResponse(
        400, jsonrpc::Error(nullptr, jsonrpc::kInvalidRequest,
                            "Invalid Request: 'id' must be a string or an integer.")));
  }
  if (parsed.fault == JsonBodyFault::kNulCharacter) {
    return refuse(
        JsonRpcResponse(200, jsonrpc::Error(message["id"], jsonrpc::kInvalidParams,
                                            "Invalid params: a string contains U+0000.")));
  }
  return Message{std::move(message), std::nullopt};
}

// A call that may run for minutes (spec §6.2.3) runs on a thread of its own. Finished within
// the grace it answers application/json like any call; otherwise the answer becomes an SSE
// stream on this POST: progress notifications as nodes finish (when the request carries
// _meta.progressToken), keep-alive comments while idle, then the final response.
HttpResponse McpHttpEndpoint::LongCall(Json message, const HttpRequest& request,
                                       const Principal& principal) {
  auto events = std::make_shared<EventStream>();
  const Json message_copy = message;
  auto done = std::make_shared<std::promise<std::string>>();
  std::future<std::string> answer = done->get_future();
  std::thread([this, message = std::move(message), principal, events, done,
               correlation_id = request.correlation_id, ip = request.remote_ip,
               ttl = ResultTtlHeader(request)] {
    McpRequestContext context{
        principal, correlation_id, ip,
        [events](const Json& notification) { events->WriteEvent(notification.dump(), "message"); },
        ttl};
    std::string text;
    try {
      text = server_.HandleRequestText(message, context);
    } catch (const std::exception& error) {
      text = jsonrpc::Error(message["id"], jsonrpc::kInternalError, "Internal error.").dump();
    }
    done->set_value(text);
    events->WriteEvent(text, "message");
    events->Close();
  }).detach();
  // A caller that asked for progress gets the stream at once: its notifications are the point.
  if (!WantsProgress(message_copy) && answer.wait_for(kStreamAfter) == std::future_status::ready) {
    HttpResponse response;
    response.body = answer.get();
    return response;
  }
  HttpResponse response;
  response.stream = std::move(events);
  return response;
}

bool McpHttpEndpoint::WantsProgress(const Json& message) {
  const Json params = message.value("params", Json::object());
  return params.is_object() && params.contains("_meta") && params["_meta"].is_object() &&
         params["_meta"].contains("progressToken");
}

bool McpHttpEndpoint::IsLongCall(const Json& message) {
  if (message.value("method", "") != "tools/call") return false;
  auto params = message.find("params");
  // Not value("name", ""): it throws on a non-string name, which McpServer answers -32602.
  if (params == message.end() || !params->is_object()) return false;
  auto name = params->find("name");
  return name != params->end() && *name == "pipelines_execute";
}

bool McpHttpEndpoint::AcceptsEventStream(const HttpRequest& request) {
  auto accept = request.headers.Get("Accept");
  return accept && accept->find("text/event-stream") != std::string_view::npos;
}

}  // namespace dp
