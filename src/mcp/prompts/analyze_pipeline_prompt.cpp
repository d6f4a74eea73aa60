// §8.1 analyze_pipeline: a read-only review of one pipeline. Every step names a served tool.
#include "datapipelines/mcp/prompts/prompt_definition.hpp"

namespace dp {

PromptDefinition AnalyzePipelinePrompt() {
  PromptDefinition prompt;
  prompt.name = "analyze_pipeline";
  prompt.title = "Analyze a pipeline";
  prompt.description =
      "Guide the agent through analyzing a pipeline's structure, identifying potential issues, "
      "and suggesting improvements.";
  prompt.arguments = {{"pipeline_id", "The pipeline's id (a UUID), as pipelines_list returns it.",
                       true, PromptArgumentKind::kUuid}};
  prompt.render = [](const std::map<std::string, std::string>& arguments) {
    const std::string& id = arguments.at("pipeline_id");
    return "Analyze the datapipelines pipeline " + id +
           " and report what you find. This is a READ-ONLY review: do not create, update, "
           "execute or delete anything, and change nothing on the person's behalf.\n"
           "\n"
           "1. Read the pipeline: call pipelines_get with {\"id\": \"" +
           id + "\"} (the same body is the resource datapipelines://pipelines/" + id +
           "). If it answers pipeline.not_found, the pipeline is absent from this workspace: "
           "tell the person and stop — do not guess another id.\n"
           "2. Map the DAG: every node's id, type, source, template pin {id, version}, "
           "depends_on and output (tempdb table, caller, or datasource write-back with its "
           "mode). Flag a cycle risk, a node nothing depends on that is not the caller, more "
           "than one caller node, and any write-back (mode replace truncates first).\n"
           "3. Read each referenced template: call templates_get with the node's template id "
           "and pinned version. Note its dialect and whether it is a DRAFT.\n"
           "4. Preview the generated SQL: call templates_render for each template with a "
           "representative context — the pipeline's declared parameters with realistic values "
           "(defaults applied). Read the rendered SQL, not just the template.\n"
           "5. Check the SQL against the node's target dialect: the datasource's own dialect "
           "(datasources_get with the node's source) or SQLITE for a tempdb source. Look for "
           "values spliced into SQL with ${...} where a :name bind belongs.\n"
           "6. Look for performance issues: filters and aggregations that could run at the "
           "source instead of in tempdb, unbounded scans of large tables "
           "(datasources_get_table_stats shows row counts), wide SELECT *, joins across "
           "datasources staged without a filter.\n"
           "7. Report your findings: what the pipeline answers and at what grain, each issue "
           "with the node it concerns and why it matters, and concrete suggested changes. "
           "Present them as suggestions for the person; any change would be a new DRAFT a "
           "person reviews and releases.\n";
  };
  return prompt;
}

}  // namespace dp
