#include "datapipelines/rest/datasource_routes.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/rest_router.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/datasources/datasource_explorer.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"

namespace dp {
namespace {

constexpr std::string_view kDatasourcesPrefix = "/api/v1/datasources";
// A present-but-empty ?schema= is absent (REST §9.7).
Json LocatorArgs(const HttpRequest& request, const std::string& name, const std::string& table) {
  Json args{{"name", name}};
  if (!table.empty()) args["table"] = table;
  if (auto schema = QueryParam(request.query, "schema"); schema && !schema->empty()) {
    args["schema"] = *schema;
  }
  return args;
}

// ?scope=instance: the whole registry for an instance admin; a present-but-empty parameter is
// absent (REST §9.7).
HttpResponse ListPage(DatasourceService& service, const HttpRequest& request,
                      const Principal& principal) {
  DatasourceListQuery query = DatasourceListQuery::FromJson(QueryArguments(
      request,
      {.strings = {"scope", "dialect"}, .integers = {"offset", "limit"}, .empty_is_absent = true}));
  DatasourceService::Page page = service.ListPage(principal, query);
  return SuccessEnvelope(
      PagedItems(page.items, query.window.offset, query.window.limit, page.total, page.has_more),
      request.correlation_id);
}

// The locator of a table listing (`table` empty) or of one table.
TableLocator Locator(const RestCall& c, const std::string& table) {
  return TableLocator::FromJson(LocatorArgs(c.request, c.Param("name"), table));
}

// ?purge=true deletes a soft-deleted datasource for good (its name is free again).
HttpResponse Delete(DatasourceService& service, const RestCall& c) {
  if (QueryParam(c.request.query, "purge") == std::optional<std::string>("true")) {
    service.Purge(c.principal, c.Param("name"));
  } else {
    service.Delete(c.principal, c.Param("name"));
  }
  return NoContent();
}

// preview and probe name their datasource in the path, not the body.
}  // namespace

RestResource DatasourceRoutes(DatasourceService& datasources, DatasourceExplorer& explorer) {
  auto& d = datasources;
  auto& e = explorer;
  RestRouter router{std::string(kDatasourcesPrefix)};
  router
      .On("GET", "", Operation::kDatasourcesList,
          [&d](const RestCall& c) { return ListPage(d, c.request, c.principal); })
      .On("POST", "", Operation::kDatasourcesCreate,
          [&d](const RestCall& c) {
            return c.Ok(d.Create(c.principal, ParseBody(c.request)), 201);
          })
      .On("GET", "/{name}", Operation::kDatasourcesGet,
          [&d](const RestCall& c) { return c.Ok(d.Get(c.principal, c.Param("name"))); })
      .On("PUT", "/{name}", Operation::kDatasourcesUpdate,
          [&d](const RestCall& c) {
            return c.Ok(d.Update(c.principal, c.Param("name"), ParseBody(c.request)));
          })
      .On("DELETE", "/{name}", Operation::kDatasourcesDelete,
          [&d](const RestCall& c) { return Delete(d, c); })
      .On("POST", "/{name}/test", Operation::kDatasourcesTest,
          [&d](const RestCall& c) { return c.Ok(d.Test(c.principal, c.Param("name"))); })
      .On("POST", "/{name}/restore", Operation::kDatasourcesRestore,
          [&d](const RestCall& c) { return c.Ok(d.Restore(c.principal, c.Param("name"))); })
      .On("GET", "/{name}/schemas", Operation::kDatasourcesGetSchemas,
          [&e](const RestCall& c) { return c.Ok(e.GetSchemas(c.principal, c.Param("name"))); })
      .On("GET", "/{name}/tables", Operation::kDatasourcesGetTables,
          [&e](const RestCall& c) { return c.Ok(e.GetTables(c.principal, Locator(c, ""))); })
      .On("GET", "/{name}/tables/{table}/columns", Operation::kDatasourcesGetColumns,
          [&e](const RestCall& c) {
            return c.Ok(e.GetColumns(c.principal, Locator(c, c.Param("table"))));
          })
      .On("GET", "/{name}/tables/{table}/stats", Operation::kDatasourcesGetTableStats,
          [&e](const RestCall& c) {
            return c.Ok(e.GetTableStats(c.principal, Locator(c, c.Param("table"))));
          })
      .On("POST", "/{name}/preview", Operation::kDatasourcesPreviewRows,
          [&e](const RestCall& c) {
            return c.Ok(e.PreviewRows(c.principal, PreviewRequest::FromJson(c.BodyNamedByPath())));
          })
      .On("POST", "/{name}/probe", Operation::kSqlProbe,
          [&e](const RestCall& c) {
            return c.Ok(e.Probe(c.principal, ProbeRequest::FromJson(c.BodyNamedByPath())));
          })
      .On("GET", "/{name}/grants", Operation::kDatasourcesListGrants,
          [&d](const RestCall& c) { return c.Ok(d.ListGrants(c.principal, c.Param("name"))); })
      .On("POST", "/{name}/grants", Operation::kDatasourcesGrant,
          [&d](const RestCall& c) {
            Json body = ParseBody(c.request);
            return c.Ok(d.Grant(c.principal, c.Param("name"), RequiredString(body, "workspace")),
                        201);
          })
      .On("DELETE", "/{name}/grants/{workspace}", Operation::kDatasourcesRevoke,
          [&d](const RestCall& c) {
            d.Revoke(c.principal, c.Param("name"), c.Param("workspace"));
            return NoContent();
          });
  return std::move(router).Resource();
}

}  // namespace dp
