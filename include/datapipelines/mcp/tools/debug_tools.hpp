#pragma once

namespace dp {

class CheckRunService;
class NodeRunService;
class ToolCatalog;

// pipelines_execute_node (spec §6.2.20) and pipelines_run_checks (§6.2.42): the debug query of
// one node and the server's run of a version's release checks, each one call into its service
// on the agent surface.
void BindDebugTools(ToolCatalog& catalog, NodeRunService& node_runs, CheckRunService& checks);

}  // namespace dp
