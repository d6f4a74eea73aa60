#include "datapipelines/rest/endpoint_routes.hpp"

#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/endpoint_service.hpp"

namespace dp {
namespace {

constexpr std::string_view kPrefix = "/api/v1/endpoints";

HttpResponse Ok(const HttpRequest& request, Json data, int status = 200) {
  return SuccessEnvelope(std::move(data), request.correlation_id, status);
}

std::string RequiredQuery(const HttpRequest& request, const char* name) {
  auto value = QueryParam(request.query, name);
  if (!value || value->empty()) throw InvalidField(name, "is required as a query parameter");
  return *value;
}

}  // namespace

RestResource EndpointRoutes(EndpointService& endpoints) {
  return [&endpoints](const HttpRequest& request,
                      const Principal& principal) -> std::optional<HttpResponse> {
    auto s = PathSegmentsBelow(request.path, kPrefix);
    if (!s) return std::nullopt;
    const std::string& method = request.method;
    if (s->empty()) {
      if (method == "POST") {
        Json body = ParseBody(request);
        CreateEndpointRequest create;
        create.path = RequiredString(body, "path");
        create.pipeline = RequiredString(body, "pipeline");
        if (body.contains("timeout_seconds") && !body["timeout_seconds"].is_null()) {
          if (!body["timeout_seconds"].is_number_integer()) {
            throw InvalidField("timeout_seconds", "must be an integer");
          }
          create.timeout_seconds = body["timeout_seconds"].get<int64_t>();
        }
        create.description = OptionalStringField(body, "description").value_or("");
        create.correlation_id = request.correlation_id;
        return Ok(request, endpoints.Create(principal, create), 201);
      }
      if (method == "GET") {
        if (auto path = QueryParam(request.query, "path")) {
          return Ok(request, endpoints.Get(principal, *path));
        }
        return Ok(request, endpoints.List(principal));
      }
      if (method == "DELETE") {
        return Ok(request, endpoints.Delete(principal, RequiredQuery(request, "path"),
                                            request.correlation_id));
      }
      return std::nullopt;
    }
    if (s->size() == 1 && (*s)[0] == "bindings") {
      if (method == "GET") return Ok(request, endpoints.ListBindings(principal));
      if (method == "POST") {
        Json body = ParseBody(request);
        return Ok(request,
                  endpoints.Bind(principal, RequiredString(body, "path"),
                                 RequiredString(body, "key_name")),
                  201);
      }
      if (method == "DELETE") {
        return Ok(request, endpoints.Unbind(principal, RequiredQuery(request, "path"),
                                            RequiredQuery(request, "key_name")));
      }
    }
    return std::nullopt;
  };
}

}  // namespace dp
