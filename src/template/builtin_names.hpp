#pragma once
// The built-in vocabulary: which `?name`s parse, which are refused as dangerous.
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

}  // namespace dp::tmpl
