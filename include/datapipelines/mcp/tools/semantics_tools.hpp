#pragma once

namespace dp {

class SemanticsService;
class ToolCatalog;

// The three learned-semantics tools (spec §6.2.37–39), each one call into SemanticsService.
// An argument fault the service reports (request.validation.invalid: a malformed `since`) is
// JSON-RPC -32602; every semantics.* refusal stays an isError result.
void BindSemanticsTools(ToolCatalog& catalog, SemanticsService& semantics);

}  // namespace dp
