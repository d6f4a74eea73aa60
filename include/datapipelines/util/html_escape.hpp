#pragma once
// Text made safe inside HTML markup and attribute values: & < > " ' as entities. One escaper
// for the template engine's html mode and the mail notices' HTML part.
#include <string>
#include <string_view>

namespace dp {

std::string HtmlEscape(std::string_view text);

}  // namespace dp
