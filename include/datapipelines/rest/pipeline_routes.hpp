#pragma once
// /api/v1/pipelines (REST API §5): the REST twins of the pipeline tools plus the human verbs
// release, draft purge and delete. A pipeline is addressed by uuid, so no route carries a name.
#include "datapipelines/rest/rest_api.hpp"

namespace dp {

class CheckRunService;
class ExecutionService;
class PipelineService;

// `executions` serves POST /pipelines/{id}/execute; `checks` serves the release checks
// (POST /pipelines/{id}/versions/{v}/checks/run, GET …/checks — rest-api §5.16).
RestResource PipelineRoutes(PipelineService& pipelines, ExecutionService& executions,
                            CheckRunService& checks);

}  // namespace dp
