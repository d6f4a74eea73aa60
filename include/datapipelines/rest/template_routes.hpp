#pragma once
// /api/v1/templates (REST API §8): the REST twins of the template tools plus the human verbs
// release, discard and delete. A template id is ONE path segment, percent-encoded
// (acme%2Ffinance%2Fdaily.sql), so ids and the fixed sub-paths can never be confused.
#include "datapipelines/rest/rest_api.hpp"

namespace dp {

class TemplateService;

RestResource TemplateRoutes(TemplateService& templates);

}  // namespace dp
