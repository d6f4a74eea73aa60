#include "datapipelines/auth/access_policy.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

Json RoleJson(const std::optional<Role>& role) {
  return role ? Json(std::string(ToString(*role))) : Json(nullptr);
}

void EnforceScope(const Principal& principal, Scope min_scope) {
  if (principal.scope >= min_scope) return;
  throw DomainError(errc::kScopeInsufficient,
                    "this API key's scope is '" + std::string(ToString(principal.scope)) +
                        "'; the operation requires '" + std::string(ToString(min_scope)) + "'",
                    {{"required", ToString(min_scope)}, {"granted", ToString(principal.scope)}});
}

[[noreturn]] void ThrowIssuerRoleLost(const Principal& principal, Role min_role) {
  throw DomainError(errc::kKeyIssuerRoleLost,
                    "the user who issued this API key no longer holds the role it requires in "
                    "workspace '" +
                        principal.workspace_name +
                        "'; a key from a member who holds the role is needed",
                    {{"required", ToString(min_role)}, {"role", RoleJson(principal.role)}});
}

void EnforceFloor(const Principal& principal, Scope min_scope, Role min_role) {
  const bool is_key = !principal.via_session;
  // A session's scope is derived from its role, so humans are judged on the role alone.
  if (is_key) EnforceScope(principal, min_scope);
  if (principal.super_admin) return;
  if (!principal.role) {
    if (is_key) ThrowIssuerRoleLost(principal, min_role);
    throw DomainError(errc::kWorkspaceMembershipRequired,
                      "you are not a member of workspace '" + principal.workspace_name + "'",
                      {{"workspace", principal.workspace_name}});
  }
  if (*principal.role >= min_role) return;
  // The issuer could once issue this scope but no longer can: retrying will never work.
  if (is_key && MaxScopeForRole(*principal.role) < principal.scope) {
    ThrowIssuerRoleLost(principal, min_role);
  }
  throw DomainError(errc::kRoleRequired,
                    "the operation requires role '" + std::string(ToString(min_role)) +
                        "' in workspace '" + principal.workspace_name + "'",
                    {{"required", ToString(min_role)}, {"role", RoleJson(principal.role)}});
}

}  // namespace

void EnforceAccess(const Principal& principal, Operation operation) {
  const OperationAccess& access = AccessOf(operation);
  EnforceFloor(principal, access.min_scope, access.min_role);
}

bool IsAllowed(const Principal& principal, Operation operation) {
  try {
    EnforceAccess(principal, operation);
    return true;
  } catch (const DomainError&) {
    return false;
  }
}

}  // namespace dp
