#pragma once
// The built-in vocabulary: which `?name`s parse, which are refused as dangerous.
#include <cstddef>
#include <string>
#include <string_view>

namespace dp::tmpl {

// camelCase spellings (upperCase) map to FreeMarker's snake_case names (upper_case).
std::string NormalizeBuiltInName(std::string_view name);
bool IsSupportedBuiltIn(std::string_view normalized);
// ?eval ?interpret ?eval_json ?api ?new (templates.md §4.2).
bool IsForbiddenBuiltIn(std::string_view normalized);
// Built-ins that read loop state of a <#list> variable (x?index, x?has_next, ...).
bool IsLoopVariableBuiltIn(std::string_view normalized);
// ?filter ?map ?take_while ?drop_while: one lambda or function argument, evaluated lazily.
bool IsStreamBuiltIn(std::string_view normalized);
// Why a FreeMarker 2.3.31 built-in is refused at save; null for one that is not refused.
const char* UnsupportedBuiltInReason(std::string_view normalized);
// The 1-based position of a built-in's flags argument (max() when it has none).
size_t FlagsArgumentPosition(std::string_view normalized);

}  // namespace dp::tmpl
