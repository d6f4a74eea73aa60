#include "datapipelines/metrics/metrics_endpoint.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/net/loopback_address.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {

HttpResponse MetricsEndpoint::Handle(const HttpRequest& request) const {
  if (token_.empty()) {
    if (!IsLoopbackAddress(request.remote_ip)) {
      return ErrorEnvelope(DomainError(errc::kMetricsClientNotLoopback,
                                       "/metrics answers loopback clients only; set "
                                       "datapipelines.metrics.token to scrape from elsewhere."),
                           request.correlation_id);
    }
  } else {
    constexpr std::string_view kBearer = "Bearer ";
    auto authorization = request.headers.Get("Authorization");
    bool valid = authorization && authorization->starts_with(kBearer) &&
                 ConstantTimeEquals(authorization->substr(kBearer.size()), token_);
    if (!valid) {
      HttpResponse refusal =
          ErrorEnvelope(DomainError(errc::kMetricsTokenInvalid,
                                    "Send the metrics token as Authorization: Bearer <token>."),
                        request.correlation_id);
      refusal.SetHeader("WWW-Authenticate", "Bearer realm=\"metrics\"");
      return refusal;
    }
  }
  HttpResponse response;
  response.content_type = "text/plain; version=0.0.4; charset=utf-8";
  response.body = metrics_.Registry().RenderPrometheus();
  return response;
}

}  // namespace dp
