#pragma once
// The identifier grammars of the pipeline contract, written once.
#include <cstddef>
#include <string_view>

namespace dp::identifier_rules {

inline bool IsLowerWordChar(char c) { return (c >= 'a' && c <= 'z') || c == '_'; }
inline bool IsDigitChar(char c) { return c >= '0' && c <= '9'; }

// [a-z0-9_]{1,63}: node ids, output tables (§10.1), check ids (§3.3).
inline bool IsTableIdentifier(std::string_view text) {
  if (text.empty() || text.size() > 63) return false;
  for (char c : text) {
    if (!IsLowerWordChar(c) && !IsDigitChar(c)) return false;
  }
  return true;
}

// [a-z_][a-z0-9_]{0,62}: parameter names and Context keys (§6.1).
inline bool IsContextKeyName(std::string_view text) {
  return IsTableIdentifier(text) && !IsDigitChar(text.front());
}

// `tempdb` and the `__…__` namespace (§10.1).
inline bool IsReservedIdentifier(std::string_view text) {
  return text == "tempdb" ||
         (text.size() >= 4 && text.substr(0, 2) == "__" && text.substr(text.size() - 2) == "__");
}

}  // namespace dp::identifier_rules
