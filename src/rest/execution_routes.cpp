#include "datapipelines/rest/execution_routes.hpp"

#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/rest_router.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/executions/execution_service.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

constexpr std::string_view kExecutionsPrefix = "/api/v1/executions";

// csv and arrow are served as their own media types (rest-api §7.5), JSON in the envelope.
HttpResponse ResultResponse(const RestCall& call, Json result, const std::string& format) {
  if (format == "json") return call.Ok(std::move(result));
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

ExecutionListQuery ListQuery(const HttpRequest& request) {
  return ExecutionListQuery::FromJson(QueryArguments(
      request, {.strings = {"pipeline_id", "status", "started_after", "started_before"},
                .integers = {"limit", "offset"}}));
}

// The result cursor (rest-api §7): no inline cap, it IS the place the bytes are fetched from.
HttpResponse Result(ExecutionService& executions, const RestCall& c) {
  const std::string format = QueryParam(c.request.query, "format").value_or("json");
  int64_t offset = 0;
  std::optional<int64_t> limit;
  if (auto text = QueryParam(c.request.query, "offset")) offset = ParseIntField(*text, "offset");
  if (auto text = QueryParam(c.request.query, "limit")) limit = ParseIntField(*text, "limit");
  return ResultResponse(
      c, executions.GetResult(c.principal, c.Param("id"), offset, limit, format, /*uncapped=*/true),
      format);
}

}  // namespace

RestResource ExecutionRoutes(ExecutionService& executions) {
  auto& e = executions;
  RestRouter router{std::string(kExecutionsPrefix)};
  router
      .On("GET", "", Operation::kExecutionsList,
          [&e](const RestCall& c) { return c.Ok(e.List(c.principal, ListQuery(c.request))); })
      .On("GET", "/{id}", Operation::kExecutionsGet,
          [&e](const RestCall& c) { return c.Ok(e.Get(c.principal, c.Param("id"))); })
      .On("DELETE", "/{id}", Operation::kExecutionsCancel,
          [&e](const RestCall& c) {
            return c.Ok(e.Cancel(c.principal, c.Param("id"), ExecutionSurface::kHuman), 202);
          })
      .On("GET", "/{id}/events", Operation::kExecutionsEvents,
          [&e](const RestCall& c) {
            return c.Ok(Json{{"execution_id", c.Param("id")},
                             {"events", e.Events(c.principal, c.Param("id"))}});
          })
      .On("GET", "/{id}/result", Operation::kExecutionsGetResult,
          [&e](const RestCall& c) { return Result(e, c); });
  return std::move(router).Resource();
}

}  // namespace dp
