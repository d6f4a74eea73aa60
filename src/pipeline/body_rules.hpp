#pragma once
// The rule groups PipelineStructureValidator runs, one file each.
#include <cstddef>

#include "datapipelines/pipeline/pipeline_body.hpp"
#include "datapipelines/pipeline/pipeline_structure_validator.hpp"
#include "datapipelines/pipeline/validation_problems.hpp"

namespace dp {

// §12.10: every CALCULATOR-node rule, and calculator fields on other node types.
void ValidateCalculatorNodes(const PipelineBody& body, const NodeGraph& graph,
                             ValidationProblems& problems);
// §12.12: the body-alone release-check rules (the datasource registry lookup is the service's).
void ValidateReleaseChecks(const PipelineBody& body, std::size_t max_checks,
                           ValidationProblems& problems);

}  // namespace dp
