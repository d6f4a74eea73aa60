#include "datapipelines/http/request_policy.hpp"

#include <algorithm>
#include <cctype>

#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/util/ascii.hpp"
#include "datapipelines/util/crypto.hpp"
#include "datapipelines/util/utf8.hpp"

namespace dp {
namespace {

// "Host: example.com:8080" → "example.com"; "[::1]:80" → "[::1]".
std::string StripPort(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    auto close = host.find(']');
    return std::string(host.substr(0, close == std::string_view::npos ? host.size() : close + 1));
  }
  auto colon = host.rfind(':');
  if (colon != std::string_view::npos && host.find(':') == colon)
    return std::string(host.substr(0, colon));
  return std::string(host);
}

bool IsLoopbackName(std::string_view host) {
  if (host == "localhost" || host == "[::1]") return true;
  if (host.rfind("127.", 0) != 0) return false;
  return std::all_of(host.begin(), host.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
  });
}

// Every byte that enters as text is UTF-8: target, header names and values.
// Credentials are opaque bytes: whether they are a key or a session is the authenticator's
// call, so a garbled key is answered like any other wrong key (401), not as bad text.
bool IsCredentialHeader(std::string_view name) {
  return AsciiEqualsIgnoreCase(name, "Authorization") ||
         AsciiEqualsIgnoreCase(name, "DP-API-Key") || AsciiEqualsIgnoreCase(name, "Cookie");
}

bool TextIsUtf8(const HttpRequest& request) {
  if (!IsValidUtf8(request.target)) return false;
  for (const auto& [name, value] : request.headers.All()) {
    if (!IsValidUtf8(name)) return false;
    if (!IsValidUtf8(value) && !IsCredentialHeader(name)) return false;
  }
  return true;
}

}  // namespace

RequestPolicy::RequestPolicy(std::vector<std::string> allowed_hosts,
                             std::vector<std::string> allowed_origins)
    : allowed_origins_(std::move(allowed_origins)) {
  for (const auto& host : allowed_hosts) allowed_hosts_.push_back(AsciiLower(StripPort(host)));
}

bool RequestPolicy::HostAllowed(std::string_view host_header) const {
  std::string host = AsciiLower(StripPort(host_header));
  if (host.empty()) return false;
  if (IsLoopbackName(host)) return true;
  return std::find(allowed_hosts_.begin(), allowed_hosts_.end(), host) != allowed_hosts_.end();
}

bool RequestPolicy::OriginAllowed(std::optional<std::string_view> origin) const {
  if (!origin) return true;
  for (const auto& allowed : allowed_origins_) {
    if (*origin == allowed) return true;
  }
  // http://localhost:3000, http://127.0.0.1:8080, http://[::1]:…
  std::string lowered = AsciiLower(*origin);
  for (std::string_view scheme : {"http://", "https://"}) {
    if (lowered.rfind(scheme, 0) == 0)
      return IsLoopbackName(StripPort(std::string_view(lowered).substr(scheme.size())));
  }
  return false;
}

std::string RequestPolicy::CorrelationIdFor(const HttpHeaders& headers) {
  auto inbound = headers.Get("DP-Correlation-Id");
  if (inbound && IsUuid(*inbound)) return AsciiLower(*inbound);
  return NewUuid();
}

std::optional<EdgeRefusal> RequestPolicy::Refusal(const HttpRequest& request) const {
  if (!TextIsUtf8(request)) {
    return EdgeRefusal{400, &errc::kRequestInvalid,
                       "The request target or a header is not valid UTF-8."};
  }
  if (request.headers.Count("Host") > 1) {
    return EdgeRefusal{400, &errc::kRequestInvalid, "More than one Host header."};
  }
  auto host = request.headers.Get("Host");
  if (!host || !HostAllowed(*host)) {
    return EdgeRefusal{403, &errc::kHostNotAllowed, "Host header is not allowed."};
  }
  if (!OriginAllowed(request.headers.Get("Origin"))) {
    return EdgeRefusal{403, &errc::kOriginNotAllowed, "Origin is not allowed."};
  }
  return std::nullopt;
}

}  // namespace dp
