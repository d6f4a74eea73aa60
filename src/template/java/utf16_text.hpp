#pragma once
// Java's view of a string: FreeMarker counts and indexes characters in UTF-16 code units, so
// a character outside the BMP (an emoji) is two of them. These map that view onto UTF-8.
#include <cstdint>
#include <string>
#include <string_view>

namespace dp::tmpl {

// String.length(): UTF-16 code units.
int64_t Utf16Length(std::string_view s);

// String.substring(from, to) in UTF-16 units (0 <= from <= to <= length). A cut through a
// surrogate pair leaves a lone surrogate, which Java's UTF-8 encoder writes as '?'.
std::string Utf16Substring(std::string_view s, int64_t from, int64_t to);

// Character.isWhitespace: ASCII white-space and separators, the Unicode space separators except
// the no-break ones, and the line/paragraph separators.
bool IsJavaWhitespace(uint32_t cp);
// Whether the UTF-8 text holds a character that is not Character.isWhitespace.
bool HasNonJavaWhitespace(std::string_view s);

// UTF-8 to UTF-16 code units and back (a lone surrogate back is '?', as Java writes it).
std::u16string ToUtf16(std::string_view s);
std::string FromUtf16(std::u16string_view s);

}  // namespace dp::tmpl
