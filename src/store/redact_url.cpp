#include "datapipelines/store/redact_url.hpp"

#include <optional>

namespace dp {
namespace {

constexpr std::string_view kMask = "***";

// [begin, end) of the password inside "scheme://user:password@host…", if any. The last
// '@' is taken so a raw '@' inside the password is still covered (over-masking is safe).
std::optional<std::pair<std::size_t, std::size_t>> UserinfoPassword(std::string_view url) {
  std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return std::nullopt;
  std::size_t start = scheme_end + 3;
  std::size_t at = url.rfind('@');
  if (at == std::string_view::npos || at < start) return std::nullopt;
  std::size_t colon = url.find(':', start);
  if (colon == std::string_view::npos || colon > at) return std::nullopt;
  return std::make_pair(colon + 1, at);
}

// Masks every "password=<value>" (URL query or libpq keyword/value form).
std::string MaskPasswordParams(std::string text) {
  constexpr std::string_view kKey = "password=";
  std::size_t pos = 0;
  while ((pos = text.find(kKey, pos)) != std::string::npos) {
    std::size_t begin = pos + kKey.size();
    std::size_t end = text.find_first_of("& ", begin);
    if (end == std::string::npos) end = text.size();
    text.replace(begin, end - begin, kMask);
    pos = begin + kMask.size();
  }
  return text;
}

void ReplaceAll(std::string& text, std::string_view needle) {
  if (needle.empty()) return;
  std::size_t pos = 0;
  while ((pos = text.find(needle, pos)) != std::string::npos) {
    text.replace(pos, needle.size(), kMask);
    pos += kMask.size();
  }
}

}  // namespace

std::string RedactUrl(std::string_view url) {
  std::string out(url);
  if (auto range = UserinfoPassword(url)) {
    out.replace(range->first, range->second - range->first, kMask);
  }
  return MaskPasswordParams(std::move(out));
}

std::string ScrubSecrets(std::string_view message, std::string_view url) {
  std::string out(message);
  if (auto range = UserinfoPassword(url)) {
    ReplaceAll(out, url.substr(range->first, range->second - range->first));
  }
  // Passwords given as query parameters.
  constexpr std::string_view kKey = "password=";
  for (std::size_t pos = url.find(kKey); pos != std::string_view::npos;
       pos = url.find(kKey, pos + 1)) {
    std::size_t begin = pos + kKey.size();
    std::size_t end = url.find_first_of("& ", begin);
    ReplaceAll(out, url.substr(begin, end == std::string_view::npos ? end : end - begin));
  }
  // The URL itself may be echoed back verbatim.
  return MaskPasswordParams(std::move(out));
}

}  // namespace dp
