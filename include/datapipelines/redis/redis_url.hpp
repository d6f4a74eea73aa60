#pragma once
// A parsed "redis://[[user]:password@]host[:port][/db]" URL. The password never leaves
// this struct through Redacted(); error messages use Redacted() only.
#include <string>
#include <string_view>

namespace dp {

struct RedisUrl {
  std::string host;
  int port = 6379;
  std::string username;  // empty: AUTH <password> (pre-ACL form)
  std::string password;  // empty: no AUTH
  int db = 0;

  // Throws std::invalid_argument with a message that never echoes the URL's secret.
  static RedisUrl Parse(std::string_view url);
  // "redis://host:port/db", with "***@" in place of any credentials.
  std::string Redacted() const;
};

}  // namespace dp
