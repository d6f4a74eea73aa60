#pragma once
// FreeMarker's string escapers (StringUtil in 2.3.31): ?j_string, ?js_string, ?json_string,
// ?url and ?url_path, over UTF-8 text.
#include <optional>
#include <string>
#include <string_view>

namespace dp::tmpl {

// ?j_string: Java string literal escaping; other control characters as \u00xx (lower-case hex).
std::string JavaStringEscape(std::string_view s);

// ?js_string (json = false) and ?json_string (json = true): quotes, backslash, control
// characters (\xXX in JavaScript, \uXXXX in JSON), U+2028/U+2029, and the "</", "<!", "<?",
// "]]>", "-->" sequences that could end a script or CDATA section.
std::string JsStringEscape(std::string_view s, bool json);

// ?url(charset) / ?url_path(charset): percent-encodes all but [A-Za-z0-9_.!~*'()-] (and '/'
// for url_path) in the charset's bytes. nullopt for a charset other than UTF-8, ISO-8859-1 and
// US-ASCII (and their usual aliases).
std::optional<std::string> UrlEscape(std::string_view s, std::string_view charset, bool keep_slash);

}  // namespace dp::tmpl
