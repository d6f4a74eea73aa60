#pragma once
// The REST envelopes (REST API §4.1–4.2), shared by /api/v1, /mcp transport refusals and
// /skill routes: one builder, so every surface answers errors in the same shape.
#include <string>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/limits/rate_limiter.hpp"
#include "datapipelines/net/http_message.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// {"schema_version":1,"correlation_id":…,"data":…} with the given status.
HttpResponse SuccessEnvelope(Json data, const std::string& correlation_id, int status = 200);
// {"schema_version":1,"correlation_id":…,"error":{code,message,details?}}; the status comes
// from the code; 429s carry Retry-After from details.retry_after_seconds.
HttpResponse ErrorEnvelope(const DomainError& error, const std::string& correlation_id);
// RateLimit-Limit / -Remaining / -Reset (REST API §12.2).
void AddRateLimitHeaders(HttpResponse& response, const RateDecision& rate);

}  // namespace dp
