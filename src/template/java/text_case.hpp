#pragma once
// Locale-independent case mapping of UTF-8 text, matching Java's String.toUpperCase /
// toLowerCase for ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic (other scripts pass
// through unchanged).
#include <string>
#include <string_view>

namespace dp::tmpl {

class TextCase {
 public:
  static std::string Upper(std::string_view text);
  static std::string Lower(std::string_view text);
  // Upper-cases the first non-whitespace character (?cap_first) or lower-cases it
  // (?uncap_first).
  static std::string ChangeFirst(std::string_view text, bool upper);
  // Every word's first letter upper-cased, the rest lower-cased (?capitalize).
  static std::string Capitalize(std::string_view text);
};

}  // namespace dp::tmpl
