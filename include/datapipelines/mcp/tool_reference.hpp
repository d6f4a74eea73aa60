#pragma once
#include <string>

namespace dp {

class ToolCatalog;

// skill/references/tools.md, rendered from the served catalog (spec §15: generated, never
// hand-typed; a test fails when the committed file differs).
std::string RenderToolReference(const ToolCatalog& catalog);

}  // namespace dp
