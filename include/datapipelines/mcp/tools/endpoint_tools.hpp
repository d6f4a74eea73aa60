#pragma once

namespace dp {

class EndpointService;
class ToolCatalog;

// The four published-endpoint tools (spec §6.2.23–26), each one call into EndpointService —
// the same service POST/GET/DELETE /api/v1/endpoints call. Every endpoint.* refusal is an
// isError result; an argument fault the service reports is JSON-RPC -32602.
void BindEndpointTools(ToolCatalog& catalog, EndpointService& endpoints);

}  // namespace dp
