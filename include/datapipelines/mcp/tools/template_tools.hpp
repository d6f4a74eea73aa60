#pragma once

namespace dp {

class TemplateService;
class ToolCatalog;

// The seven template tools (spec §6.2.6–9, §6.2.21, §6.2.32, §6.2.36), each one call into
// TemplateService on the agent surface.
void BindTemplateTools(ToolCatalog& catalog, TemplateService& templates);

}  // namespace dp
