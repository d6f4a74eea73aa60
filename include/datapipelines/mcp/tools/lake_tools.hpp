#pragma once

namespace dp {

class LakeTableService;
class ToolCatalog;

// The three dp-lake registry tools (spec §6.2.29–31), each one call into LakeTableService.
// An argument fault (request.validation.invalid) is JSON-RPC -32602; every datasource.* refusal
// stays an isError result.
void BindLakeTools(ToolCatalog& catalog, LakeTableService& lake);

}  // namespace dp
