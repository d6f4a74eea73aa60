#include "datapipelines/net/request_credentials.hpp"

namespace dp {
namespace {

constexpr std::string_view kBearer = "Bearer ";
constexpr std::string_view kKeyPrefix = "dpk_";

// The dpk_ token carried by "Authorization: Bearer dpk_…", or nullopt.
std::optional<std::string_view> BearerKey(const HttpHeaders& headers) {
  auto authorization = headers.Get("Authorization");
  if (!authorization || authorization->rfind(kBearer, 0) != 0) return std::nullopt;
  std::string_view token = authorization->substr(kBearer.size());
  if (token.rfind(kKeyPrefix, 0) != 0) return std::nullopt;
  return token;
}

}  // namespace

RequestCredentials RequestCredentials::FromHeaders(const HttpHeaders& headers) {
  RequestCredentials credentials = SessionOnly(headers);
  auto header_key = headers.Get("DP-API-Key");
  auto bearer = BearerKey(headers);
  credentials.key_count = headers.Count("DP-API-Key") + (bearer ? 1 : 0);
  if (header_key) {
    credentials.api_key = *header_key;
  } else if (bearer) {
    credentials.api_key = *bearer;
  }
  credentials.workspace = headers.Get("DP-Workspace");
  return credentials;
}

RequestCredentials RequestCredentials::SessionOnly(const HttpHeaders& headers) {
  RequestCredentials credentials;
  credentials.session_token = CookieView(headers, "dp_session");
  return credentials;
}

}  // namespace dp
