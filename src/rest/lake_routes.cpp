#include "datapipelines/rest/lake_routes.hpp"

#include "datapipelines/lake/lake_table_service.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/rest_support.hpp"

namespace dp {
namespace {

constexpr std::string_view kPrefix = "/api/v1/datasources";

HttpResponse Ok(Json data, const HttpRequest& request, int status = 200) {
  return SuccessEnvelope(std::move(data), request.correlation_id, status);
}

}  // namespace

RestResource LakeRoutes(LakeTableService& lake) {
  return [&lake](const HttpRequest& request,
                 const Principal& principal) -> std::optional<HttpResponse> {
    auto segments = PathSegmentsBelow(request.path, kPrefix);
    if (!segments || segments->size() < 2) return std::nullopt;
    const auto& s = *segments;
    const std::string& name = s[0];
    const std::string& method = request.method;
    if (s.size() == 2 && s[1] == "lake-tables" && method == "GET") {
      return Ok(lake.List(principal, name), request);
    }
    if (s[1] != "tables") return std::nullopt;
    if (s.size() == 2 && method == "POST") {
      Json body = ParseBody(request);
      body["name"] = name;
      return Ok(lake.Register(principal, body), request, 201);
    }
    if (s.size() == 3 && s[2] == "import" && method == "POST") {
      Json body = ParseBody(request);
      body["name"] = name;
      return Ok(lake.Import(principal, body), request);
    }
    if (s.size() == 4 && method == "DELETE") {
      return Ok(
          lake.Unregister(principal, Json{{"name", name}, {"namespace", s[2]}, {"table", s[3]}}),
          request);
    }
    return std::nullopt;
  };
}

}  // namespace dp
