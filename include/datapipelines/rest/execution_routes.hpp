#pragma once
// /api/v1/executions (REST API §7, §10): the execution history, one execution, its result
// cursor and cancel — the REST twins of the execution tools, without the agent-only
// same-credential rule (a person, or a program with the user's key, may stop its own runs).
#include "datapipelines/rest/rest_api.hpp"

namespace dp {

class ExecutionService;

RestResource ExecutionRoutes(ExecutionService& executions);

}  // namespace dp
