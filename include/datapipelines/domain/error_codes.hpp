#pragma once
// The one registry of error codes (pipeline-contract §13, workspaces design §8, MCP spec).
// REST envelopes and MCP isError results are both built from these.
#include <span>

#include "datapipelines/domain/error_code.hpp"

namespace dp::errc {

#define DP_ERROR_CODE(name, code, status) inline constexpr ErrorCode name{code, status};
#include "datapipelines/domain/error_codes.inc"
#undef DP_ERROR_CODE

// Every code above, for registry-wide checks (format, uniqueness) in tests.
std::span<const ErrorCode> All();

}  // namespace dp::errc
