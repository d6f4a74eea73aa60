#include "datapipelines/rest/endpoint_routes.hpp"

#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/rest_router.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/endpoints/endpoint_service.hpp"

namespace dp {
namespace {

constexpr std::string_view kEndpointsPrefix = "/api/v1/endpoints";

std::string RequiredQuery(const HttpRequest& request, const char* name) {
  auto value = QueryParam(request.query, name);
  if (!value || value->empty()) throw InvalidField(name, "is required as a query parameter");
  return *value;
}

CreateEndpointRequest CreateRequest(const HttpRequest& request) {
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
  return create;
}

}  // namespace

// A published endpoint is named by its path, which has slashes of its own: it travels in
// ?path=, never in the route.
RestResource EndpointRoutes(EndpointService& endpoints) {
  auto& e = endpoints;
  RestRouter router{std::string(kEndpointsPrefix)};
  router
      .On("POST", "", Operation::kEndpointsCreate,
          [&e](const RestCall& c) {
            return c.Ok(e.Create(c.principal, CreateRequest(c.request)), 201);
          })
      .On("GET", "", Operation::kEndpointsList,
          [&e](const RestCall& c) {
            if (auto path = QueryParam(c.request.query, "path")) {
              return c.Ok(e.Get(c.principal, *path));
            }
            return c.Ok(e.List(c.principal));
          })
      .On("DELETE", "", Operation::kEndpointsDelete,
          [&e](const RestCall& c) {
            return c.Ok(
                e.Delete(c.principal, RequiredQuery(c.request, "path"), c.request.correlation_id));
          })
      .On("GET", "/bindings", Operation::kEndpointsListBindings,
          [&e](const RestCall& c) { return c.Ok(e.ListBindings(c.principal)); })
      .On("POST", "/bindings", Operation::kEndpointsBind,
          [&e](const RestCall& c) {
            Json body = ParseBody(c.request);
            return c.Ok(
                e.Bind(c.principal, RequiredString(body, "path"), RequiredString(body, "key_name")),
                201);
          })
      .On("DELETE", "/bindings", Operation::kEndpointsUnbind, [&e](const RestCall& c) {
        return c.Ok(e.Unbind(c.principal, RequiredQuery(c.request, "path"),
                             RequiredQuery(c.request, "key_name")));
      });
  return std::move(router).Resource();
}

}  // namespace dp
