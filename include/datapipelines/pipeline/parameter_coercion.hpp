#pragma once
// The strict §6.3 coercion of a JSON value against a canonical type (pipeline-contract §6.3,
// type-system §3.1): wrong wire encoding is refused, never converted. Save time uses it for
// `default` (default_type_mismatch) and calculator literals; the executor reuses it for every
// supplied execute parameter (pipeline.execution.invalid_parameter_type).
#include <optional>
#include <string>

#include "datapipelines/pipeline/pipeline_body.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// The ten types a parameter may declare (type-system §3 minus NULL).
bool IsParameterType(const std::string& type);

// nullopt when `value` is a valid wire value of `type`; otherwise why not, as a sentence.
// precision/scale bound DECIMAL and BIGDECIMAL values when given. "ANY" accepts any non-null
// scalar (an ANY-typed calculator input or key).
std::optional<std::string> TypeCoercionFailure(const std::string& type, const Json& value,
                                               std::optional<int> precision = std::nullopt,
                                               std::optional<int> scale = std::nullopt);
// The declared parameter's type, precision and scale.
std::optional<std::string> CoercionFailure(const ParameterDecl& parameter, const Json& value);

// A type-appropriate sample value in wire form (used where no value exists: dry render,
// node_run's sampled parameters). ANY and unknown types yield a string.
Json SampleValue(const std::string& type);
// The same, honouring a declared BIGDECIMAL/DECIMAL scale so the sample survives coercion.
Json SampleValue(const ParameterDecl& parameter);

// The save-time render context: every declared parameter -> its default, else a sample; every
// key a calculator node writes -> a sample of its output type.
Json DryRenderContext(const PipelineBody& body);

}  // namespace dp
