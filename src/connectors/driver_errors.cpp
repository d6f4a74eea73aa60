#include "driver_errors.hpp"

#include "datapipelines/domain/error_codes.hpp"

namespace dp::driver_errors {
namespace {

constexpr std::size_t kMaxMessage = 500;

bool IsPermission(std::string_view sqlstate, int vendor_code) {
  // 42501 insufficient_privilege (PG); MySQL 1142 table, 1143 column, 1044 database access.
  return sqlstate == "42501" || vendor_code == 1142 || vendor_code == 1143 || vendor_code == 1044;
}

bool IsConnectionLoss(std::string_view sqlstate, int vendor_code) {
  // SQLSTATE class 08, or the server shutting down or not yet up (57P01-57P03, what a
  // restart sends a session it closes); MySQL client errors 2002/2003/2006/2013 (server gone
  // or lost).
  return sqlstate.rfind("08", 0) == 0 || sqlstate == "57P01" || sqlstate == "57P02" ||
         sqlstate == "57P03" || vendor_code == 2002 || vendor_code == 2003 || vendor_code == 2006 ||
         vendor_code == 2013 || vendor_code == 2055;
}

}  // namespace

// Credentials are removed by structure — a URL's userinfo, a `password=` pair — never by
// searching the text for the secret's characters: a one-letter password would otherwise
// mangle every word that contains it ("***ort 1 failed"). Only a secret long enough that a
// match cannot be an accident (≥ 8 characters) is also replaced verbatim, as a last guard.
std::string Scrub(std::string_view message, const std::string& secret) {
  std::string out(message);
  // scheme://user:secret@host → scheme://***@host
  for (std::size_t scheme = out.find("://"); scheme != std::string::npos;
       scheme = out.find("://", scheme + 3)) {
    std::size_t start = scheme + 3;
    std::size_t end = out.find_first_of("@/ \t\n\"'", start);
    if (end != std::string::npos && out[end] == '@' && end > start) {
      out.replace(start, end - start, "***");
    }
  }
  // password=secret, password='sec ret', password: secret (libpq conninfo, MySQL options)
  for (std::string_view key : {"password=", "password:", "PASSWORD=", "pwd="}) {
    for (std::size_t pos = out.find(key); pos != std::string::npos;
         pos = out.find(key, pos + key.size())) {
      std::size_t start = pos + key.size();
      while (start < out.size() && out[start] == ' ') ++start;
      std::size_t end = start;
      if (start < out.size() && (out[start] == '\'' || out[start] == '"')) {
        end = out.find(out[start], start + 1);
        end = end == std::string::npos ? out.size() : end + 1;
      } else {
        while (end < out.size() && out[end] != ' ' && out[end] != '\n' && out[end] != ';' &&
               out[end] != '&' && out[end] != ',') {
          ++end;
        }
      }
      out.replace(start, end - start, "***");
    }
  }
  if (secret.size() >= 8) {
    for (std::size_t pos = out.find(secret); pos != std::string::npos;
         pos = out.find(secret, pos + 3)) {
      out.replace(pos, secret.size(), "***");
    }
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  if (out.size() > kMaxMessage) out = out.substr(0, kMaxMessage) + "…";
  return out;
}

namespace {

void ReplaceAll(std::string& text, const std::string& needle, std::string_view with) {
  if (needle.empty()) return;
  for (std::size_t pos = text.find(needle); pos != std::string::npos;
       pos = text.find(needle, pos + with.size())) {
    text.replace(pos, needle.size(), with);
  }
}

// Connection details (spec §13): a failure names no user, host, port or database — the
// caller knows the datasource by name. The driver's own text often embeds them.
std::string WithoutConnectionDetails(std::string text, const ConnectorConfig& config) {
  ReplaceAll(text, config.host, "<host>");
  if (config.username.size() >= 2) ReplaceAll(text, config.username, "<user>");
  if (config.database.size() >= 3) ReplaceAll(text, config.database, "<database>");
  if (config.dialect == Dialect::kSqlite) ReplaceAll(text, config.sqlite_path, "<file>");
  if (config.port > 0) {
    std::string port = std::to_string(config.port);
    ReplaceAll(text, ":" + port, ":<port>");
    ReplaceAll(text, "port " + port, "port <port>");
    ReplaceAll(text, "port \"" + port + "\"", "port <port>");
    ReplaceAll(text, "(" + port + ")", "(<port>)");
  }
  return text;
}

}  // namespace

DomainError Unreachable(const ConnectorConfig& config, std::string_view driver_message) {
  std::string reason = WithoutConnectionDetails(Scrub(driver_message, config.password), config);
  return DomainError(
      errc::kDatasourceUnreachable,
      "datasource unreachable (" + std::string(ToString(config.dialect)) + "): " + reason,
      Json{{"dialect", std::string(ToString(config.dialect))}, {"reason", reason}});
}

DomainError StatementFailed(const ConnectorConfig& config, std::string_view sqlstate,
                            int vendor_code, std::string_view driver_message) {
  std::string message = Scrub(driver_message, config.password);
  Json details{{"sqlstate", std::string(sqlstate)}, {"driver_message", message}};
  if (vendor_code) details["vendor_code"] = vendor_code;
  if (IsPermission(sqlstate, vendor_code)) {
    return DomainError(errc::kDatasourceTableForbidden,
                       "the datasource's credentials may not read this object: " + message,
                       details);
  }
  if (IsConnectionLoss(sqlstate, vendor_code)) return Unreachable(config, driver_message);
  return DomainError(errc::kNodeQueryFailed, "query failed: " + message, details);
}

DomainError TimedOut(int timeout_ms) {
  return DomainError(
      errc::kNodeQueryFailed,
      "query cancelled after exceeding the " + std::to_string(timeout_ms) + " ms timeout",
      Json{{"reason", "timeout"}, {"timeout_ms", timeout_ms}});
}

DomainError Cancelled() {
  return DomainError(errc::kNodeQueryFailed, "query cancelled", Json{{"reason", "cancelled"}});
}

}  // namespace dp::driver_errors
