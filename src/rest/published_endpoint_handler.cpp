#include "datapipelines/rest/published_endpoint_handler.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/service/endpoints/endpoint_service.hpp"
#include "datapipelines/service/identity/request_authenticator.hpp"

namespace dp {
namespace {

constexpr std::string_view kPublishedPrefix = "/api/x";

std::optional<std::string> Header(const HttpRequest& request, std::string_view name) {
  auto value = request.headers.Get(name);
  if (!value) return std::nullopt;
  return std::string(*value);
}

}  // namespace

PublishedEndpointHandler::PublishedEndpointHandler(RequestAuthenticator& authenticator,
                                                   EndpointService& endpoints)
    : authenticator_(authenticator), endpoints_(endpoints) {}

HttpResponse PublishedEndpointHandler::Handle(const HttpRequest& request) {
  try {
    AuthenticatedRequest authenticated =
        authenticator_.Authenticate(RequestCredentials::FromHeaders(request.headers),
                                    request.remote_ip, CredentialPolicy::kPublishedEndpoint, request.path);
    EndpointServeRequest serve;
    serve.method = request.method;
    serve.path = request.path.size() > kPublishedPrefix.size()
                     ? request.path.substr(kPublishedPrefix.size())
                     : "/";
    serve.raw_query = request.query;
    serve.accept = Header(request, "Accept");
    serve.if_none_match = Header(request, "If-None-Match");
    serve.ttl_header = Header(request, "DP-Result-TTL-Seconds");
    serve.page_rows_header = Header(request, "DP-Result-Page-Rows");
    serve.correlation_id = request.correlation_id;
    EndpointServeAnswer answer = endpoints_.Serve(authenticated.principal, serve);
    HttpResponse response;
    if (answer.status == 202) {
      const std::string status_url = answer.data.value("status_url", std::string());
      response = SuccessEnvelope(std::move(answer.data), request.correlation_id, 202);
      response.SetHeader("Location", status_url);
      response.SetHeader("Cache-Control", "no-store");
    } else if (answer.status == 304) {
      response.status = 304;
      response.content_type.clear();
    } else if (answer.csv) {
      response.status = 200;
      response.content_type = "text/csv; charset=utf-8";
      response.body = std::move(answer.csv_body);
    } else {
      response = SuccessEnvelope(std::move(answer.data), request.correlation_id, 200);
    }
    if (answer.status != 202) {
      // private: a result belongs to the caller who ran it; no shared cache may hold it.
      response.SetHeader("ETag", answer.etag);
      response.SetHeader("Cache-Control",
                         "private, max-age=" + std::to_string(answer.max_age_seconds));
      response.SetHeader("Vary", "Accept, DP-API-Key, Authorization");
    }
    response.SetHeader("DP-Execution-Id", answer.execution_id);
    AddRateLimitHeaders(response, authenticated.rate);
    return response;
  } catch (const DomainError& error) {
    HttpResponse response = ErrorEnvelope(error, request.correlation_id);
    if (error.code() == errc::kEndpointMethodNotAllowed) response.SetHeader("Allow", "GET");
    return response;
  }
}

}  // namespace dp
