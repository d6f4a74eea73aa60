#pragma once
// ASCII case mapping for protocol tokens, identifiers and e-mails — never locale-dependent.
#include <string>
#include <string_view>

namespace dp {

std::string AsciiLower(std::string_view text);
// Equal when ASCII letters are folded to lower case (HTTP header names).
bool AsciiEqualsIgnoreCase(std::string_view a, std::string_view b);
// Non-empty and nothing but 0-9.
bool AsciiAllDigits(std::string_view text);

}  // namespace dp
