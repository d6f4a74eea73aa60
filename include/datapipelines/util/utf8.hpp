#pragma once
#include <cstdint>
#include <string>

namespace dp {

// Appends the UTF-8 encoding of code point `cp` (callers pass valid scalar values).
void AppendUtf8(std::string* out, uint32_t cp);

}  // namespace dp
