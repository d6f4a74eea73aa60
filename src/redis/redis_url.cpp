#include "datapipelines/redis/redis_url.hpp"

#include "datapipelines/util/percent_encoding.hpp"

#include <charconv>
#include <stdexcept>

namespace dp {
namespace {

constexpr std::string_view kScheme = "redis://";

[[noreturn]] void Invalid(const std::string& reason) {
  // Never echo the URL itself: it may carry a password.
  throw std::invalid_argument("invalid redis URL: " + reason);
}

int ParseInt(std::string_view text, int min, int max, const char* what) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < min ||
      value > max) {
    Invalid(std::string(what) + " must be an integer in [" + std::to_string(min) + ", " +
            std::to_string(max) + "]");
  }
  return value;
}

// Userinfo may be percent-encoded (a password containing '@' or ':').
std::string DecodeCredential(std::string_view text) {
  auto decoded = dp::PercentDecode(text);
  if (!decoded) Invalid("bad percent-encoding in credentials");
  return *decoded;
}

void ParseUserinfo(std::string_view userinfo, RedisUrl& url) {
  auto colon = userinfo.find(':');
  if (colon == std::string_view::npos) {
    // "redis://secret@host" is the common shorthand for a password.
    url.password = DecodeCredential(userinfo);
    return;
  }
  url.username = DecodeCredential(userinfo.substr(0, colon));
  url.password = DecodeCredential(userinfo.substr(colon + 1));
}

void ParseHostPort(std::string_view authority, RedisUrl& url) {
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {  // [ipv6]:port
    auto close = authority.find(']');
    if (close == std::string_view::npos) Invalid("unterminated IPv6 host");
    url.host = std::string(authority.substr(1, close - 1));
    std::string_view rest = authority.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') Invalid("unexpected text after IPv6 host");
      port = rest.substr(1);
      if (port.empty()) Invalid("empty port");
    }
  } else {
    auto colon = authority.rfind(':');
    url.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) {
      port = authority.substr(colon + 1);
      if (port.empty()) Invalid("empty port");
    }
  }
  if (url.host.empty()) Invalid("missing host");
  if (!port.empty()) url.port = ParseInt(port, 1, 65535, "port");
}

}  // namespace

RedisUrl RedisUrl::Parse(std::string_view text) {
  if (text.substr(0, kScheme.size()) != kScheme) Invalid("expected scheme redis://");
  std::string_view rest = text.substr(kScheme.size());
  if (rest.find_first_of("?#") != std::string_view::npos) Invalid("query and fragment unsupported");
  RedisUrl url;
  auto slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  if (slash != std::string_view::npos) {
    std::string_view db = rest.substr(slash + 1);
    if (!db.empty()) url.db = ParseInt(db, 0, 1'000'000, "database");
  }
  auto at = authority.rfind('@');
  if (at != std::string_view::npos) {
    ParseUserinfo(authority.substr(0, at), url);
    authority = authority.substr(at + 1);
  }
  ParseHostPort(authority, url);
  return url;
}

std::string RedisUrl::Redacted() const {
  std::string host_text = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  std::string credentials = (password.empty() && username.empty()) ? "" : "***@";
  return std::string(kScheme) + credentials + host_text + ":" + std::to_string(port) + "/" +
         std::to_string(db);
}

}  // namespace dp
