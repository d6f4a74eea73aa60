#pragma once
// Reads a pipelines_create / pipelines_update request (or a stored body) into a PipelineBody.
// Every JSON-shape defect is collected into `problems` with its path (`nodes[2].output.table`);
// nothing throws on bad input. Server-assigned fields (id, version, owner, created_at,
// updated_at) and the call's own flags (confirm_new_root, door_acknowledged, expected_hash) are
// ignored entirely: the portable body never carries them (pipeline-contract §3.2 note).
#include <cstddef>

#include "datapipelines/pipeline/pipeline_body.hpp"
#include "datapipelines/pipeline/validation_problems.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class PipelineBodyParser {
 public:
  // Hard parse bounds, far above every validation limit, so a hostile array costs nothing
  // beyond what the transport already parsed. Past them the list is refused and truncated.
  static constexpr std::size_t kMaxNodes = 5000;
  static constexpr std::size_t kMaxDependencies = 5000;
  static constexpr std::size_t kMaxParameters = 1000;
  static constexpr std::size_t kMaxChecks = 200;

  static PipelineBody Parse(const Json& request, ValidationProblems& problems);
  // A body read back from the store: it was validated in full when it was saved, so what
  // validation would report again is not collected.
  static PipelineBody ParseStored(const Json& stored);
};

}  // namespace dp
