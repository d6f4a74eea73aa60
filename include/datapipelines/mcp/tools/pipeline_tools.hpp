#pragma once

namespace dp {

class PipelineService;
class ToolCatalog;

// The four pipeline authoring tools (spec §6.2.1, §6.2.2, §6.2.4, §6.2.5), each one call into
// PipelineService on the agent surface.
void BindPipelineTools(ToolCatalog& catalog, PipelineService& pipelines);

}  // namespace dp
