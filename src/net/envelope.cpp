#include "datapipelines/net/envelope.hpp"

#include <algorithm>

namespace dp {

HttpResponse SuccessEnvelope(Json data, const std::string& correlation_id, int status) {
  HttpResponse response;
  response.status = status;
  response.body =
      Json{{"schema_version", 1}, {"correlation_id", correlation_id}, {"data", std::move(data)}}
          .dump();
  return response;
}

HttpResponse ErrorEnvelope(const DomainError& error, const std::string& correlation_id) {
  HttpResponse response;
  response.status = error.http_status();
  response.body =
      Json{{"schema_version", 1}, {"correlation_id", correlation_id}, {"error", error.ToJson()}}
          .dump();
  const Json& details = error.details();
  const bool retry_later = details.is_object() && details.contains("retry_after_seconds");
  if (response.status == 429 || retry_later) {  // e.g. auth.login.locked (403) names it too
    int64_t retry_after = 1;
    if (details.is_object() && details.contains("retry_after_seconds") &&
        details["retry_after_seconds"].is_number_integer()) {
      retry_after = std::max<int64_t>(1, details["retry_after_seconds"].get<int64_t>());
    }
    response.SetHeader("Retry-After", std::to_string(retry_after));
  }
  return response;
}

void AddRateLimitHeaders(HttpResponse& response, const RateDecision& rate) {
  response.SetHeader("RateLimit-Limit", std::to_string(rate.limit));
  response.SetHeader("RateLimit-Remaining", std::to_string(rate.remaining));
  response.SetHeader("RateLimit-Reset", std::to_string(rate.reset_epoch_seconds));
}

}  // namespace dp
