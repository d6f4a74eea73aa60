#pragma once
// ASCII case mapping for protocol tokens, identifiers and e-mails — never locale-dependent.
#include <string>
#include <string_view>

namespace dp {

std::string AsciiLower(std::string_view text);

}  // namespace dp
