#include "datapipelines/rest/lake_routes.hpp"

#include "datapipelines/lake/lake_table_service.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/rest_router.hpp"
#include "datapipelines/rest/rest_support.hpp"

namespace dp {
namespace {

constexpr std::string_view kLakePrefix = "/api/v1/datasources";
}  // namespace

RestResource LakeRoutes(LakeTableService& lake) {
  auto& l = lake;
  RestRouter router{std::string(kLakePrefix)};
  router
      .On("GET", "/{name}/lake-tables", Operation::kLakeTablesList,
          [&l](const RestCall& c) { return c.Ok(l.List(c.principal, c.Param("name"))); })
      .On("POST", "/{name}/tables", Operation::kLakeTablesRegister,
          [&l](const RestCall& c) {
            return c.Ok(l.Register(c.principal, c.BodyNamedByPath()), 201);
          })
      .On("POST", "/{name}/tables/import", Operation::kLakeTablesImport,
          [&l](const RestCall& c) { return c.Ok(l.Import(c.principal, c.BodyNamedByPath())); })
      .On("DELETE", "/{name}/tables/{namespace}/{table}", Operation::kLakeTablesUnregister,
          [&l](const RestCall& c) {
            return c.Ok(l.Unregister(c.principal, Json{{"name", c.Param("name")},
                                                       {"namespace", c.Param("namespace")},
                                                       {"table", c.Param("table")}}));
          });
  return std::move(router).Resource();
}

}  // namespace dp
