#pragma once
// /api/v1/datasources (REST API §9, datasources.md §11): registry CRUD and workspace grants
// (humans only), plus the REST twins of the nine datasource tools. A datasource name is one
// path segment; tables are one percent-encoded segment below /tables.
#include "datapipelines/rest/rest_api.hpp"

namespace dp {

class DatasourceExplorer;
class DatasourceService;

RestResource DatasourceRoutes(DatasourceService& datasources, DatasourceExplorer& explorer);

}  // namespace dp
