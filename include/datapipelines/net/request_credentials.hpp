#pragma once
// The credentials a request carries, read from its headers once at the HTTP edge (the MCP,
// REST, UI and published-endpoint adapters): RequestAuthenticator judges them and never
// parses a header. The views point into the headers they were read from, so a
// RequestCredentials lives no longer than its request.
#include <optional>
#include <string_view>

#include "datapipelines/net/http_message.hpp"

namespace dp {

struct RequestCredentials {
  // How many API keys the request presents: each DP-API-Key header and an
  // "Authorization: Bearer dpk_…" (another bearer token is not an API key).
  int key_count = 0;
  std::string_view api_key;  // the DP-API-Key value, else the bearer token; "" when none
  std::optional<std::string_view> session_token;  // the dp_session cookie
  std::optional<std::string_view> workspace;      // DP-Workspace

  static RequestCredentials FromHeaders(const HttpHeaders& headers);
  // The session cookie alone: the web UI is session-only, so a key header is not even seen.
  static RequestCredentials SessionOnly(const HttpHeaders& headers);
};

}  // namespace dp
