#include "datapipelines/rest/execution_routes.hpp"

#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/execution_service.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

constexpr std::string_view kPrefix = "/api/v1/executions";

HttpResponse Ok(const HttpRequest& request, Json data, int status = 200) {
  return SuccessEnvelope(std::move(data), request.correlation_id, status);
}

// csv and arrow are served as their own media types (rest-api §7.5), JSON in the envelope.
HttpResponse ResultResponse(const HttpRequest& request, Json result, const std::string& format) {
  if (format == "json") return Ok(request, std::move(result));
  HttpResponse response;
  response.status = 200;
  if (result.contains("data")) {
    response.body = Base64Decode(result["data"].get<std::string>());
    response.content_type = result["content_type"].get<std::string>();
  } else {
    response.body = result.dump();  // never reached: the REST cursor serves any size
  }
  return response;
}

}  // namespace

RestResource ExecutionRoutes(ExecutionService& executions) {
  return [&executions](const HttpRequest& request,
                       const Principal& principal) -> std::optional<HttpResponse> {
    auto s = PathSegmentsBelow(request.path, kPrefix);
    if (!s) return std::nullopt;
    const std::string& method = request.method;
    if (s->empty() && method == "GET") {
      ExecutionListQuery query;
      query.pipeline_id = QueryParam(request.query, "pipeline_id");
      query.status = QueryParam(request.query, "status");
      if (auto after = QueryParam(request.query, "started_after")) {
        query.started_after_ms = ExecutionListQuery::ParseTimeBound(*after, "started_after");
      }
      if (auto before = QueryParam(request.query, "started_before")) {
        query.started_before_ms = ExecutionListQuery::ParseTimeBound(*before, "started_before");
      }
      ParseListWindow(request, query.limit, query.offset);
      return Ok(request, executions.List(principal, query));
    }
    if (s->size() == 1 && method == "GET") return Ok(request, executions.Get(principal, (*s)[0]));
    if (s->size() == 1 && method == "DELETE") {
      return Ok(request, executions.Cancel(principal, (*s)[0], ExecutionSurface::kHuman), 202);
    }
    if (s->size() == 2 && (*s)[1] == "events" && method == "GET") {
      return Ok(request, Json{{"execution_id", (*s)[0]},
                              {"events", executions.Events(principal, (*s)[0])}});
    }
    if (s->size() == 2 && (*s)[1] == "result" && method == "GET") {
      const std::string format = QueryParam(request.query, "format").value_or("json");
      int64_t offset = 0;
      std::optional<int64_t> limit;
      if (auto text = QueryParam(request.query, "offset")) offset = ParseIntField(*text, "offset");
      if (auto text = QueryParam(request.query, "limit")) limit = ParseIntField(*text, "limit");
      // The REST cursor has no inline cap: it IS the place the bytes are fetched from.
      return ResultResponse(request,
                            executions.GetResult(principal, (*s)[0], offset, limit, format,
                                                 /*uncapped=*/true),
                            format);
    }
    return std::nullopt;
  };
}

}  // namespace dp
