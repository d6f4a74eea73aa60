#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace dp {

// RFC 3986 percent-encoding: every byte but the unreserved ones (letters, digits, - . _ ~) as
// %XX — safe in a path segment, a query value and a form body alike.
std::string PercentEncode(std::string_view text);
// RFC 3986 percent-decoding; nullopt when a '%' is not followed by two hex digits.
std::optional<std::string> PercentDecode(std::string_view text);
// The same decoding, keeping a '%' without two hex digits as written — how the database
// drivers read their URLs, so the credential rules see what a driver would.
std::string PercentDecodeLenient(std::string_view text);

}  // namespace dp
