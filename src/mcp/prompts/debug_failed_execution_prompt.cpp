// §8.3 debug_failed_execution: diagnose one failed run. Every step names a served tool.
#include "datapipelines/mcp/prompts/prompt_definition.hpp"

namespace dp {

PromptDefinition DebugFailedExecutionPrompt() {
  PromptDefinition prompt;
  prompt.name = "debug_failed_execution";
  prompt.title = "Debug a failed execution";
  prompt.description = "Guide the agent through diagnosing why an execution failed.";
  prompt.arguments = {{"execution_id",
                       "The failed execution's id (a UUID), as pipelines_execute or "
                       "executions_list returned it.",
                       true, PromptArgumentKind::kUuid}};
  prompt.render = [](const std::map<std::string, std::string>& arguments) {
    const std::string& id = arguments.at("execution_id");
    return "Diagnose why the datapipelines execution " + id +
           " failed, and propose a fix.\n"
           "\n"
           "1. Read the execution: call executions_get with {\"execution_id\": \"" +
           id + "\"} (the same record is the resource datapipelines://executions/" + id +
           ", and its event log is datapipelines://executions/" + id +
           "/events). If it answers pipeline.execution.not_found, the execution is absent for "
           "this key (another workspace, another user's run, or no such id): tell the person "
           "and stop. If its status is SUCCESS or RUNNING, say so — there is no failure to "
           "debug yet.\n"
           "2. Read the failure record: error.code first, then error.exception.caused_by (the "
           "root cause is LAST), then error.sql, and node_stats to find the failed node. Note "
           "the resolved parameters the run used.\n"
           "3. Compare with recent runs of the same pipeline: call executions_list with "
           "{\"pipeline_id\": <the execution's pipeline_id>}. Did it ever succeed? With which "
           "version and parameters?\n"
           "4. Read the pipeline version that ran: call pipelines_get with the execution's "
           "pipeline_id and version, and find the failing node's template pin.\n"
           "5. Read the failing node's template: call templates_get with that id and version.\n"
           "6. Re-render it with the failed execution's parameters: call templates_render with "
           "the template id, version and a context built from the execution's parameters, and "
           "read the exact SQL the node ran.\n"
           "7. Check datasource reachability: call datasources_test with the failing node's "
           "source (skip this for a tempdb source). An unreachable datasource is the world's "
           "state, not a bug in the pipeline: tell the person.\n"
           "8. If the node's own SQL is in doubt, pipelines_execute_node runs that one node on "
           "its datasource — but DML/DDL nodes run for real, so only use it for a SELECT node.\n"
           "9. Propose a fix: name the cause, the node, and the change (template SQL, pipeline "
           "body, parameters, or the person's action). Any change you make is a new DRAFT a "
           "person reviews and releases; do not claim it is live.\n";
  };
  return prompt;
}

}  // namespace dp
