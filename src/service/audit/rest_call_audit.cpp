#include "datapipelines/service/audit/rest_call_audit.hpp"

namespace dp {
namespace {

constexpr std::string_view kApiPrefix = "/api/v1/";

// "POST /api/v1/datasources/pg/grants/ws" → operation "POST datasources", target
// "pg/grants/ws"; the two-segment families (auth/…, admin/…) keep both in the operation.
void Split(std::string_view path, std::string& resource, std::string& target) {
  if (path.substr(0, kApiPrefix.size()) == kApiPrefix) path.remove_prefix(kApiPrefix.size());
  std::size_t slash = path.find('/');
  resource = std::string(path.substr(0, slash));
  std::string_view rest = slash == std::string_view::npos ? "" : path.substr(slash + 1);
  if ((resource == "auth" || resource == "admin") && !rest.empty()) {
    std::size_t next = rest.find('/');
    resource += "/" + std::string(rest.substr(0, next));
    rest = next == std::string_view::npos ? "" : rest.substr(next + 1);
  }
  target = std::string(rest);
}

}  // namespace

bool RestCallAudit::IsMutating(std::string_view method) {
  return method != "GET" && method != "HEAD" && method != "OPTIONS";
}

void RestCallAudit::Record(const Principal& principal, std::string_view method,
                           std::string_view path, int status, std::string_view outcome,
                           std::string_view code, const std::string& correlation_id,
                           const std::string& source_ip) noexcept {
  try {
    std::string resource, target;
    Split(path, resource, target);
    AuditEvent event;
    event.event = "rest.write";
    event.user_id = principal.user_id;
    event.key_id = principal.key_id;
    event.workspace_id = principal.workspace_id;
    event.correlation_id = correlation_id;
    event.source_ip = source_ip;
    event.details = {{"operation", std::string(method) + " " + resource},
                     {"method", std::string(method)},
                     {"path", std::string(path)},
                     {"target", target},
                     {"auth", principal.via_session ? "session" : "api_key"},
                     {"outcome", std::string(outcome)},
                     {"status", status}};
    if (!code.empty()) event.details["code"] = std::string(code);
    audit_.Record(std::move(event));
  } catch (...) {
    // Auditing never breaks the request it describes.
  }
}

}  // namespace dp
