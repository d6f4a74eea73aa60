#pragma once
// Evaluation is a pure function (kind, inputs, environment) -> value(s) the executor calls
// (calculators.md §3). Inputs arrive resolved (every "$ref" already replaced by its value) in
// wire form; optional inputs may be absent and take the kind's default.
#include "datapipelines/calculators/calculator_catalog.hpp"
#include "datapipelines/calculators/calculator_context.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// Single-output kinds return the value in wire form (DATE "YYYY-MM-DD", TIMESTAMP ISO-8601 with Z,
// INTEGER a JSON integer, DECIMAL a JSON number, STRING a string, ANY as given).
// Multi-output kinds return {output name: value}.
// A value the run cannot evaluate throws DomainError(pipeline.node.calculator_failed) with
// details {kind, input, reason}.
Json EvaluateCalculator(const CalculatorKind& kind, const Json& inputs,
                        const CalculatorEnvironment& env);

}  // namespace dp
