#include "datapipelines/rest/datasource_routes.hpp"

#include <charconv>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/datasource_service.hpp"

namespace dp {
namespace {

constexpr std::string_view kPrefix = "/api/v1/datasources";
constexpr int kMaxPageSize = 200;

int IntParam(const HttpRequest& request, const char* name, int fallback) {
  auto text = QueryParam(request.query, name);
  if (!text || text->empty()) return fallback;
  int value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value < 0) {
    throw DomainError(errc::kRequestInvalid, std::string("'") + name + "' must be an integer.",
                      Json{{"field", name}});
  }
  return value;
}

// A present-but-empty ?schema= is absent (REST §9.7).
Json LocatorArgs(const HttpRequest& request, const std::string& name, const std::string& table) {
  Json args{{"name", name}};
  if (!table.empty()) args["table"] = table;
  if (auto schema = QueryParam(request.query, "schema"); schema && !schema->empty()) {
    args["schema"] = *schema;
  }
  return args;
}

HttpResponse Ok(Json data, const HttpRequest& request, int status = 200) {
  return SuccessEnvelope(std::move(data), request.correlation_id, status);
}

// ?scope=instance: the whole registry for an instance admin (granted here or not).
HttpResponse ListPage(DatasourceService& service, const HttpRequest& request,
                      const Principal& principal) {
  Json all = QueryParam(request.query, "scope") == std::optional<std::string>("instance")
                 ? service.ListRegistry(principal)
                 : service.List(principal, QueryParam(request.query, "dialect"));
  int offset = IntParam(request, "offset", 0);
  int limit = std::min(std::max(IntParam(request, "limit", 50), 1), kMaxPageSize);
  Json items = Json::array();
  for (std::size_t i = offset; i < all.size() && items.size() < static_cast<std::size_t>(limit);
       ++i) {
    items.push_back(all[i]);
  }
  bool has_more = static_cast<std::size_t>(offset) + items.size() < all.size();
  return Ok(
      Json{{"items", items},
           {"pagination",
            {{"offset", offset}, {"limit", limit}, {"total", all.size()}, {"has_more", has_more}}}},
      request);
}

// {name}/… below the prefix.
std::optional<HttpResponse> Member(DatasourceService& service, const HttpRequest& request,
                                   const Principal& principal,
                                   const std::vector<std::string>& segments) {
  const std::string& method = request.method;
  const std::string& name = segments[0];
  std::size_t n = segments.size();
  if (n == 1 && method == "GET") return Ok(service.Get(principal, name), request);
  if (n == 1 && method == "PUT")
    return Ok(service.Update(principal, name, ParseBody(request)), request);
  if (n == 1 && method == "DELETE") {
    // ?purge=true deletes a soft-deleted datasource for good (its name is free again).
    if (QueryParam(request.query, "purge") == std::optional<std::string>("true")) {
      service.Purge(principal, name);
    } else {
      service.Delete(principal, name);
    }
    return NoContent();
  }
  const std::string& verb = n > 1 ? segments[1] : std::string();
  if (n == 2 && verb == "test" && method == "POST")
    return Ok(service.Test(principal, name), request);
  if (n == 2 && verb == "restore" && method == "POST")
    return Ok(service.Restore(principal, name), request);
  if (n == 2 && verb == "schemas" && method == "GET") {
    return Ok(service.GetSchemas(principal, name), request);
  }
  if (n == 2 && verb == "tables" && method == "GET") {
    return Ok(service.GetTables(principal,
                                DatasourceService::LocatorFromJson(LocatorArgs(request, name, ""))),
              request);
  }
  if (n == 4 && verb == "tables" && method == "GET" && segments[3] == "columns") {
    return Ok(service.GetColumns(principal, DatasourceService::LocatorFromJson(
                                                LocatorArgs(request, name, segments[2]))),
              request);
  }
  if (n == 4 && verb == "tables" && method == "GET" && segments[3] == "stats") {
    return Ok(service.GetTableStats(principal, DatasourceService::LocatorFromJson(
                                                   LocatorArgs(request, name, segments[2]))),
              request);
  }
  if (n == 2 && (verb == "preview" || verb == "probe") && method == "POST") {
    Json body = ParseBody(request);
    body["name"] = name;
    if (verb == "preview") {
      return Ok(service.PreviewRows(principal, DatasourceService::PreviewFromJson(body)), request);
    }
    return Ok(service.Probe(principal, DatasourceService::ProbeFromJson(body)), request);
  }
  if (n == 2 && verb == "grants" && method == "GET") {
    return Ok(service.ListGrants(principal, name), request);
  }
  if (n == 2 && verb == "grants" && method == "POST") {
    Json body = ParseBody(request);
    return Ok(service.Grant(principal, name, RequiredString(body, "workspace")), request, 201);
  }
  if (n == 3 && verb == "grants" && method == "DELETE") {
    service.Revoke(principal, name, segments[2]);
    return NoContent();
  }
  return std::nullopt;
}

}  // namespace

RestResource DatasourceRoutes(DatasourceService& datasources) {
  return [&datasources](const HttpRequest& request,
                        const Principal& principal) -> std::optional<HttpResponse> {
    auto segments = PathSegmentsBelow(request.path, kPrefix);
    if (!segments) return std::nullopt;
    if (segments->empty()) {
      if (request.method == "GET") return ListPage(datasources, request, principal);
      if (request.method == "POST") {
        return Ok(datasources.Create(principal, ParseBody(request)), request, 201);
      }
      return std::nullopt;
    }
    return Member(datasources, request, principal, *segments);
  };
}

}  // namespace dp
