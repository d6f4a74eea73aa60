#pragma once
// <#compress>: FreeMarker's StandardCompress filter applied to a block's output.
#include <string>
#include <string_view>

namespace dp::tmpl {

// Drops leading and trailing white-space and collapses every inner run of it to the run's
// first line break (CR, LF or CRLF) or, when it holds none, to one space.
std::string CompressWhitespace(std::string_view text);

}  // namespace dp::tmpl
