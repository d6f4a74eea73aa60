#include "datapipelines/connectors/connector_config.hpp"
#include "datapipelines/util/percent_encoding.hpp"

#include <cctype>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

[[noreturn]] void Malformed(const std::string& why) {
  throw DomainError(errc::kDatasourceUrlMalformed, "datasource URL is malformed: " + why);
}

void ParseQuery(std::string_view query, ConnectorConfig& config) {
  while (!query.empty()) {
    std::size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    std::size_t eq = pair.find('=');
    std::string key = PercentDecodeLenient(pair.substr(0, eq));
    std::string value =
        eq == std::string_view::npos ? "" : PercentDecodeLenient(pair.substr(eq + 1));
    if (!key.empty()) config.options[key] = value;
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
}

void ParseAuthority(std::string_view authority, ConnectorConfig& config) {
  std::size_t at = authority.rfind('@');
  if (at != std::string_view::npos) {
    std::string_view userinfo = authority.substr(0, at);
    std::size_t colon = userinfo.find(':');
    config.username = PercentDecodeLenient(userinfo.substr(0, colon));
    if (colon != std::string_view::npos)
      config.password = PercentDecodeLenient(userinfo.substr(colon + 1));
    authority.remove_prefix(at + 1);
  }
  std::size_t colon = authority.rfind(':');
  if (!authority.empty() && authority[0] == '[') colon = authority.find("]:") + 1;
  if (colon != std::string_view::npos && colon > 0) {
    std::string port(authority.substr(colon + 1));
    if (port.empty() || port.find_first_not_of("0123456789") != std::string::npos ||
        port.size() > 5) {
      Malformed("port is not a number");
    }
    config.port = std::stoi(port);
    authority = authority.substr(0, colon);
  }
  if (!authority.empty() && authority.front() == '[' && authority.back() == ']') {
    authority = authority.substr(1, authority.size() - 2);
  }
  config.host = PercentDecodeLenient(authority);
}

}  // namespace

ConnectorConfig ConnectorConfig::FromUrl(const std::string& url) {
  ConnectorConfig config;
  std::size_t scheme_end = url.find(':');
  if (scheme_end == std::string::npos) Malformed("no scheme");
  std::string scheme = url.substr(0, scheme_end);
  std::string_view rest = std::string_view(url).substr(scheme_end + 1);
  if (scheme == "sqlite") {
    config.dialect = Dialect::kSqlite;
    if (rest.rfind("//", 0) == 0) rest.remove_prefix(2);
    std::size_t q = rest.find('?');
    if (q != std::string_view::npos) ParseQuery(rest.substr(q + 1), config);
    config.sqlite_path = PercentDecodeLenient(rest.substr(0, q));
    if (config.sqlite_path.empty()) Malformed("no database path");
    return config;
  }
  if (scheme == "duckdb" || scheme == "lake") {
    config.dialect = scheme == "duckdb" ? Dialect::kDuckdb : Dialect::kLake;
    std::size_t q = rest.find('?');
    if (q != std::string_view::npos) ParseQuery(rest.substr(q + 1), config);
    std::string target = PercentDecodeLenient(rest.substr(0, q));
    if (target.empty() || target == ":memory:") {
      config.duckdb_path = ":memory:";
    } else if (config.dialect == Dialect::kDuckdb) {
      if (target.rfind("//", 0) == 0) target = target.substr(2);
      config.duckdb_path = target;
    } else {
      // LAKE: the root of the datasource's own files.
      if (target.rfind("file://", 0) != 0) Malformed("a lake URL names a file:// root");
      config.duckdb_path = ":memory:";
      config.lake_root = target.substr(7);
      if (config.lake_root.empty() || config.lake_root[0] != '/') {
        Malformed("a lake root must be an absolute path");
      }
    }
    if (config.dialect == Dialect::kLake) config.duckdb_path = ":memory:";
    return config;
  }
  if (scheme == "postgresql" || scheme == "postgres") {
    config.dialect = Dialect::kPostgres;
    config.port = 5432;
  } else if (scheme == "mysql" || scheme == "mariadb") {
    config.dialect = Dialect::kMysql;
    config.port = 3306;
  } else {
    Malformed("unsupported scheme '" + scheme + "'");
  }
  if (rest.rfind("//", 0) != 0) Malformed("expected //host");
  rest.remove_prefix(2);
  std::size_t q = rest.find('?');
  if (q != std::string_view::npos) {
    ParseQuery(rest.substr(q + 1), config);
    rest = rest.substr(0, q);
  }
  std::size_t slash = rest.find('/');
  ParseAuthority(rest.substr(0, slash), config);
  if (slash != std::string_view::npos)
    config.database = PercentDecodeLenient(rest.substr(slash + 1));
  if (config.host.empty()) Malformed("no host");
  return config;
}

std::string ConnectorConfig::Describe() const {
  std::string out(ToString(dialect));
  if (dialect == Dialect::kSqlite) return out + " " + sqlite_path;
  if (dialect == Dialect::kDuckdb) return out + " " + duckdb_path;
  if (dialect == Dialect::kLake) return out + " " + (lake_root.empty() ? ":memory:" : lake_root);
  out += " ";
  if (!username.empty()) out += username + "@";
  out += host;
  if (port) out += ":" + std::to_string(port);
  if (!database.empty()) out += "/" + database;
  return out;
}

}  // namespace dp
