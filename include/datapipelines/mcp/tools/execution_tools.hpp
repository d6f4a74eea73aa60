#pragma once

namespace dp {

class ExecutionService;
class ToolCatalog;

// pipelines_execute and the four execution tools (spec §6.2.3, §6.2.13–15, §6.2.35), each one
// call into ExecutionService on the agent surface.
void BindExecutionTools(ToolCatalog& catalog, ExecutionService& executions);

}  // namespace dp
