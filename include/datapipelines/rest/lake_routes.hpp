#pragma once
// The dp-lake registry's REST twins (REST API §9.8), mounted beside the datasource routes:
//   POST   /api/v1/datasources/{name}/tables                      register one
//   POST   /api/v1/datasources/{name}/tables/import               inline tables[] or manifest_url
//   DELETE /api/v1/datasources/{name}/tables/{namespace}/{table}  unregister (dotted namespace)
//   GET    /api/v1/datasources/{name}/lake-tables                 the registry's own rows
#include "datapipelines/rest/rest_api.hpp"

namespace dp {

class LakeTableService;

RestResource LakeRoutes(LakeTableService& lake);

}  // namespace dp
