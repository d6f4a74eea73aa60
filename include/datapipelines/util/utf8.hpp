#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace dp {

// Appends the UTF-8 encoding of code point `cp` (callers pass valid scalar values).
void AppendUtf8(std::string* out, uint32_t cp);

// True when `text` is well-formed UTF-8: shortest forms only, no surrogates, ≤ U+10FFFF.
bool IsValidUtf8(std::string_view text);

}  // namespace dp
