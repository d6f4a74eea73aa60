#include "datapipelines/net/http_message.hpp"

#include <cctype>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/util/ascii.hpp"
#include "datapipelines/util/percent_encoding.hpp"
#include "datapipelines/util/utf8.hpp"

namespace dp {
namespace {

// Query strings: '+' is a space; a malformed escape is kept as sent.
std::string DecodeQueryComponent(std::string_view text) {
  std::string spaced(text);
  for (char& c : spaced) {
    if (c == '+') c = ' ';
  }
  return PercentDecode(spaced).value_or(spaced);
}

}  // namespace

void HttpHeaders::Add(std::string name, std::string value) {
  entries_.emplace_back(std::move(name), std::move(value));
}

std::optional<std::string_view> HttpHeaders::Get(std::string_view name) const {
  for (const auto& [key, value] : entries_) {
    if (AsciiEqualsIgnoreCase(key, name)) return std::string_view(value);
  }
  return std::nullopt;
}

int HttpHeaders::Count(std::string_view name) const {
  int count = 0;
  for (const auto& entry : entries_) count += AsciiEqualsIgnoreCase(entry.first, name) ? 1 : 0;
  return count;
}

std::optional<std::string> QueryParam(std::string_view query, std::string_view name) {
  while (!query.empty()) {
    auto amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    auto eq = pair.find('=');
    if (DecodeQueryComponent(pair.substr(0, eq)) == name) {
      if (eq == std::string_view::npos) return std::string();
      std::string value = DecodeQueryComponent(pair.substr(eq + 1));
      if (!IsValidUtf8(value) || value.find('\0') != std::string::npos) {
        throw DomainError(errc::kRequestInvalid,
                          "Query parameter '" + std::string(name) +
                              "' decodes to invalid UTF-8 or contains U+0000.",
                          Json{{"field", std::string(name)}});
      }
      return value;
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return std::nullopt;
}

std::optional<std::string> CookieValue(const HttpHeaders& headers, std::string_view name) {
  auto view = CookieView(headers, name);
  if (!view) return std::nullopt;
  return std::string(*view);
}

std::optional<std::string_view> CookieView(const HttpHeaders& headers, std::string_view name) {
  for (const auto& [key, value] : headers.All()) {
    if (!AsciiEqualsIgnoreCase(key, "cookie")) continue;
    std::string_view rest(value);
    while (!rest.empty()) {
      auto semi = rest.find(';');
      std::string_view item = rest.substr(0, semi);
      while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
      auto eq = item.find('=');
      if (eq != std::string_view::npos && item.substr(0, eq) == name) {
        return item.substr(eq + 1);
      }
      if (semi == std::string_view::npos) break;
      rest.remove_prefix(semi + 1);
    }
  }
  return std::nullopt;
}

}  // namespace dp
