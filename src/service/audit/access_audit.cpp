#include "datapipelines/service/audit/access_audit.hpp"

#include <array>

#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

AuditEvent AccessEvent(const char* event, const Principal& principal, const AccessTarget& target) {
  AuditEvent row;
  row.event = event;
  row.user_id = principal.user_id;
  row.key_id = principal.key_id;
  row.workspace_id = principal.workspace_id;
  row.correlation_id = std::string(target.correlation_id);
  row.source_ip = std::string(target.source_ip);
  row.details = {{"surface", std::string(target.surface)},
                 {"method", std::string(target.method)},
                 {"path", std::string(target.path)},
                 {"workspace", principal.workspace_name}};
  return row;
}

}  // namespace

bool IsAccessRefusal(std::string_view code) {
  static constexpr std::array kCodes = {errc::kScopeInsufficient.code, errc::kRoleRequired.code,
                                        errc::kKeyIssuerRoleLost.code,
                                        errc::kWorkspaceMembershipRequired.code};
  for (std::string_view refusal : kCodes) {
    if (code == refusal) return true;
  }
  return false;
}

void RecordAccessRefusal(AuditLog& audit, const Principal& principal, std::string_view code,
                         const AccessTarget& target) {
  if (!IsAccessRefusal(code)) return;
  AuditEvent row = AccessEvent("auth.scope.denied", principal, target);
  row.details["code"] = std::string(code);
  audit.Record(std::move(row));
}

void RecordSuperAdminActing(AuditLog& audit, const Principal& principal,
                            const AccessTarget& target) {
  if (!principal.acting_as_super_admin) return;
  AuditEvent row = AccessEvent("auth.super_admin_acting", principal, target);
  row.details["acting_via"] = "super_admin";
  audit.Record(std::move(row));
}

}  // namespace dp
