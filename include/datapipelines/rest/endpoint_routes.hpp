#pragma once
// /api/v1/endpoints (REST API §19.5): publish, list, read and unpublish, addressed by ?path=
// (a pattern holds '/'), and the key bindings of the endpoint tree under …/endpoints/bindings —
// the REST twins of endpoints_create/_list/_get/_delete, one EndpointService.
#include "datapipelines/rest/rest_api.hpp"

namespace dp {

class EndpointService;

RestResource EndpointRoutes(EndpointService& endpoints);

}  // namespace dp
