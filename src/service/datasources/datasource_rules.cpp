#include "datasource_rules.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "datapipelines/connectors/pool/pool_settings.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/util/ascii.hpp"
#include "datapipelines/util/edit_distance.hpp"
#include "datapipelines/util/percent_encoding.hpp"

namespace dp::datasource_rules {
namespace {

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// The JDBC sub-protocols each dialect accepts (jdbc:<scheme>:…).
std::vector<std::string_view> SchemesFor(Dialect dialect) {
  switch (dialect) {
    case Dialect::kPostgres:
      return {"postgresql"};
    case Dialect::kMysql:
      return {"mysql", "mariadb"};
    case Dialect::kSqlite:
      return {"sqlite"};
    case Dialect::kOracle:
      return {"oracle"};
    case Dialect::kMssql:
      return {"sqlserver"};
    case Dialect::kH2:
      return {"h2"};
    case Dialect::kDuckdb:
      return {"duckdb"};
    case Dialect::kLake:
      return {"lake"};
  }
  return {};
}

// Lowercase minimum refusal sets of §5.6 (class loading, file paths, connect-time SQL, TLS
// verification switches), plus the credential and server-managed keys every dialect refuses.
const std::set<std::string>& DialectRefusals(Dialect dialect) {
  static const std::set<std::string> kPostgres{"socketfactory",
                                               "socketfactoryarg",
                                               "sslfactory",
                                               "sslfactoryarg",
                                               "sslhostnameverifier",
                                               "authenticationpluginclassname",
                                               "sslkey",
                                               "sslpassword",
                                               "loggerfile",
                                               "loggerlevel",
                                               "passfile",
                                               "service",
                                               "options"};
  static const std::set<std::string> kMysql{
      "allowloadlocalinfile", "autodeserialize", "allowpublickeyretrieval",
      "local_infile",         "init_command",    "plugin_dir",
      "default_auth"};
  static const std::set<std::string> kSqlite{"enable_load_extension", "limit_attached"};
  // The in-process engine's filesystem, network and extension switches (§5.6, issue 16): the
  // connector sets and locks them, so no property or URL parameter may name one.
  static const std::set<std::string> kDuckdb{"allow_unsigned_extensions",
                                             "allow_community_extensions",
                                             "autoload_known_extensions",
                                             "autoinstall_known_extensions",
                                             "enable_external_access",
                                             "allowed_directories",
                                             "allowed_paths",
                                             "lock_configuration",
                                             "extension_directory",
                                             "custom_extension_repository",
                                             "autoinstall_extension_repository",
                                             "session_init_sql_file"};
  static const std::set<std::string> kNone{};
  switch (dialect) {
    case Dialect::kPostgres:
      return kPostgres;
    case Dialect::kMysql:
      return kMysql;
    case Dialect::kSqlite:
      return kSqlite;
    case Dialect::kDuckdb:
    case Dialect::kLake:
      return kDuckdb;
    default:
      return kNone;
  }
}

bool IsCredentialKey(const std::string& lower) {
  static const std::set<std::string> kNames{"user",    "username",        "password",
                                            "jdbcurl", "driverclassname", "datasourceclassname"};
  for (std::string_view suffix : {"password", "passwd", "pwd", "secret", "clientkey"}) {
    if (EndsWith(lower, suffix)) return true;
  }
  return kNames.count(lower) > 0 || EndsWith(lower, "factoryclass") ||
         EndsWith(lower, "pluginclass");
}

// The authority of "//authority/..." — where a userinfo "user:pw@" would hide.
std::string_view Authority(std::string_view rest) {
  if (rest.substr(0, 2) != "//") return {};
  rest.remove_prefix(2);
  return rest.substr(0, rest.find_first_of("/?"));
}

// Every key=value component anywhere in the URL, whatever the driver's grammar puts it in:
// the query (?a=b&c=d), ;-parameters (…/db;password=x), a #fragment, MySQL's
// address=(host=h)(password=x) and (host=h,password=x) host forms. Keys are percent-decoded,
// trimmed and lowercased, so pass%77ord or " Password" are the same key.
std::vector<std::string> ComponentKeys(std::string_view url) {
  std::vector<std::string> keys;
  std::size_t start = 0;
  auto flush = [&](std::size_t end) {
    std::string_view part = url.substr(start, end - start);
    std::size_t eq = part.find('=');
    if (eq != std::string_view::npos) {
      std::string key = AsciiLower(PercentDecodeLenient(part.substr(0, eq)));
      auto first = key.find_first_not_of(" \t");
      auto last = key.find_last_not_of(" \t");
      keys.push_back(first == std::string::npos ? "" : key.substr(first, last - first + 1));
      // address=(host=h)…: the value opens a nested key list; scan it too.
      // A value may itself hold key=value text (options=-c%20password%3Dx): scan it decoded.
      std::string value = PercentDecodeLenient(part.substr(eq + 1));
      if (value.find('=') != std::string::npos) {
        for (auto& nested : ComponentKeys(value)) keys.push_back(std::move(nested));
      }
    }
    start = end + 1;
  };
  for (std::size_t i = 0; i < url.size(); ++i) {
    char c = url[i];
    if (c == '?' || c == '&' || c == ';' || c == '#' || c == '(' || c == ')' || c == ',' ||
        c == '/') {
      flush(i);
    }
  }
  flush(url.size());
  return keys;
}

}  // namespace

std::optional<RuleFailure> CheckName(std::string_view name) {
  bool valid = !name.empty() && name.size() <= 63 &&
               std::all_of(name.begin(), name.end(), [](unsigned char c) {
                 return std::islower(c) || std::isdigit(c) || c == '_' || c == '-';
               });
  if (!valid) {
    return RuleFailure{errc::kDatasourceNameInvalid, "name",
                       "name must match [a-z0-9_-]+ and be 1-63 characters long"};
  }
  if (name == "tempdb") {
    return RuleFailure{errc::kDatasourceNameInvalid, "name",
                       "tempdb is reserved for the per-execution staging database"};
  }
  return std::nullopt;
}

bool IsRefusedKey(Dialect dialect, std::string_view key) {
  std::string lower = AsciiLower(key);
  return IsCredentialKey(lower) || DialectRefusals(dialect).count(lower) > 0;
}

std::vector<RuleFailure> CheckJdbcUrl(Dialect dialect, const std::string& url,
                                      ConnectorConfig& config) {
  std::vector<RuleFailure> failures;
  std::string_view rest;
  for (std::string_view scheme : SchemesFor(dialect)) {
    std::string prefix = "jdbc:" + std::string(scheme) + ":";
    if (url.rfind(prefix, 0) == 0) rest = std::string_view(url).substr(prefix.size());
  }
  if (rest.data() == nullptr) {
    failures.push_back({errc::kDatasourceUrlSchemeInvalid, "jdbc_url",
                        "jdbc_url must begin with jdbc:" + std::string(SchemesFor(dialect)[0]) +
                            ": for dialect " + std::string(ToString(dialect))});
    return failures;
  }
  if (!IsDialectServed(dialect)) return failures;  // the driver refusal is reported apart
  // A credential anywhere in the URL is refused before anything is parsed or stored: the
  // URL is returned to read keys, so it must never hold a secret in any driver's grammar.
  bool credential = Authority(rest).find('@') != std::string_view::npos;
  for (const std::string& key : ComponentKeys(rest)) {
    // password1..3 (MySQL multi-factor), sslpassword, a "secret" anywhere: all credentials.
    if (IsCredentialKey(key) || key.find("password") != std::string::npos ||
        key.find("passwd") != std::string::npos || key.find("secret") != std::string::npos) {
      credential = true;
    }
  }
  if (credential) {
    failures.push_back({errc::kDatasourceUrlMalformed, "jdbc_url",
                        "jdbc_url may not carry credentials: use the username and password "
                        "fields"});
    return failures;
  }
  if (rest.find('#') != std::string_view::npos) {
    failures.push_back(
        {errc::kDatasourceUrlMalformed, "jdbc_url", "jdbc_url may not carry a #fragment"});
    return failures;
  }
  std::string native = url.substr(5);  // drop "jdbc:"
  try {
    ConnectorConfig parsed = ConnectorConfig::FromUrl(native);
    config.host = parsed.host;
    config.port = parsed.port;
    config.database = parsed.database;
    config.sqlite_path = parsed.sqlite_path;
    config.duckdb_path = parsed.duckdb_path;
    config.lake_root = parsed.lake_root;
    for (const auto& [key, value] : parsed.options) {
      if (IsRefusedKey(dialect, key)) {
        failures.push_back({errc::kDatasourceUrlMalformed, "jdbc_url",
                            "jdbc_url property '" + key +
                                "' is refused (credential, class, file "
                                "or connect-time SQL)"});
      } else {
        config.options[key] = value;
      }
    }
  } catch (const DomainError& error) {
    failures.push_back({errc::kDatasourceUrlMalformed, "jdbc_url", error.what()});
  }
  return failures;
}

std::vector<RuleFailure> CheckProperties(Dialect dialect, const Json& properties,
                                         ConnectorConfig& config) {
  std::vector<RuleFailure> failures;
  if (properties.is_null()) return failures;
  if (!properties.is_object()) {
    return {{errc::kDatasourcePropertiesInvalid, "properties", "properties must be an object"}};
  }
  for (const auto& [key, value] : properties.items()) {
    if (key != "hikari" && key != "jdbc") {
      failures.push_back({errc::kDatasourcePropertiesInvalid, "properties." + key,
                          "properties has only the hikari and jdbc namespaces"});
    }
  }
  if (auto hikari = properties.find("hikari"); hikari != properties.end() && !hikari->is_null()) {
    try {
      config.pool = PoolSettings::FromHikari(*hikari);
    } catch (const DomainError& error) {
      failures.push_back({errc::kDatasourcePropertiesInvalid, "properties.hikari", error.what()});
    }
  }
  auto jdbc = properties.find("jdbc");
  if (jdbc == properties.end() || jdbc->is_null()) return failures;
  if (!jdbc->is_object()) {
    failures.push_back({errc::kDatasourcePropertiesInvalid, "properties.jdbc",
                        "properties.jdbc must be a flat map of strings"});
    return failures;
  }
  for (const auto& [key, value] : jdbc->items()) {
    std::string field = "properties.jdbc." + key;
    if (!value.is_string()) {
      failures.push_back({errc::kDatasourcePropertiesInvalid, field, "value must be a string"});
    } else if (IsRefusedKey(dialect, key)) {
      failures.push_back({errc::kDatasourcePropertiesInvalid, field,
                          "refused: a credential, class, file or connect-time SQL property"});
    } else {
      config.options[key] = value.get<std::string>();
    }
  }
  return failures;
}

std::vector<std::string> NormalizeIncludeSchemas(const Json& value,
                                                 std::vector<RuleFailure>& failures) {
  std::vector<std::string> out;
  if (value.is_null()) return out;
  if (!value.is_array()) {
    failures.push_back({errc::kDatasourcePropertiesInvalid, "introspection_include_schemas",
                        "introspection_include_schemas must be an array of schema names"});
    return out;
  }
  for (const auto& item : value) {
    if (!item.is_string()) {
      failures.push_back({errc::kDatasourcePropertiesInvalid, "introspection_include_schemas",
                          "entries must be strings"});
      continue;
    }
    std::string entry = AsciiLower(item.get<std::string>());
    entry.erase(0, entry.find_first_not_of(" \t\r\n"));
    entry.erase(entry.find_last_not_of(" \t\r\n") + 1);
    if (entry.empty()) continue;
    bool legal = std::all_of(entry.begin(), entry.end(), [](unsigned char c) {
      return std::islower(c) || std::isdigit(c) || c == '_' || c == '$' || c == '#';
    });
    if (!legal) {
      failures.push_back({errc::kDatasourcePropertiesInvalid, "introspection_include_schemas",
                          "'" + entry + "' is not an exact schema name (letters, digits, _ $ #)"});
    } else if (std::find(out.begin(), out.end(), entry) == out.end()) {
      out.push_back(entry);
    }
  }
  return out;
}

std::optional<std::string> Nearest(const std::string& target,
                                   const std::vector<std::string>& candidates) {
  std::string wanted = AsciiLower(target);
  std::optional<std::string> best;
  std::size_t best_distance = std::max<std::size_t>(2, wanted.size() / 3) + 1;
  for (const auto& candidate : candidates) {
    std::size_t distance = EditDistance(wanted, AsciiLower(candidate));
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

}  // namespace dp::datasource_rules

namespace dp::datasource_rules {

DomainError Translate(const DomainError& error, const std::string& datasource,
                      const ConnectorConfig& config) {
  if (error.code() == errc::kDatasourceUnreachable || error.code() == errc::kNodeConnectionFailed) {
    Json details{{"datasource", datasource}};
    if (error.details().is_object() && error.details().contains("reason") &&
        error.details()["reason"] == "pool_exhausted") {
      details["reason"] = "pool_exhausted";
    }
    return DomainError(errc::kDatasourceUnreachable,
                       "Datasource '" + datasource +
                           "' is unreachable; datasources_test reports the connection failure.",
                       details);
  }
  auto scrub = [&](std::string text) {
    if (config.password.empty()) return text;
    for (auto pos = text.find(config.password); pos != std::string::npos;
         pos = text.find(config.password, pos)) {
      text.replace(pos, config.password.size(), "***");
    }
    return text;
  };
  Json details = error.details().is_null() ? Json::object() : error.details();
  details = Json::parse(scrub(details.dump()), nullptr, false);
  if (details.is_discarded()) details = Json::object();
  return DomainError(error.code(), scrub(error.what()), details);
}

}  // namespace dp::datasource_rules
