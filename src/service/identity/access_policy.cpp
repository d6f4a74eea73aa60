#include "datapipelines/service/identity/access_policy.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

// Why a principal is below a floor; kNone when it is not.
enum class Refusal { kNone, kScope, kIssuerRoleLost, kMembership, kRole };

Refusal Judge(const Principal& principal, const OperationAccess& floor) {
  const bool is_key = !principal.via_session;
  // A session's scope is derived from its role, so humans are judged on the role alone.
  if (is_key && principal.scope < floor.min_scope) return Refusal::kScope;
  if (principal.super_admin) return Refusal::kNone;
  if (floor.min_role == RoleFloor::kSuperAdmin) return Refusal::kRole;
  if (!principal.membership) return is_key ? Refusal::kIssuerRoleLost : Refusal::kMembership;
  if (Satisfies(*principal.membership, floor.min_role)) return Refusal::kNone;
  // The issuer could once issue this scope but no longer can: retrying will never work.
  if (is_key && MaxScopeFor(*principal.membership) < principal.scope) {
    return Refusal::kIssuerRoleLost;
  }
  return Refusal::kRole;
}

// What the caller holds, for the refusal's details: its flags, or null for no membership.
Json HeldJson(const std::optional<MemberFlags>& membership) {
  return membership ? Json(FlagsName(*membership)) : Json(nullptr);
}

[[noreturn]] void Throw(Refusal refusal, const Principal& principal, const OperationAccess& floor) {
  switch (refusal) {
    case Refusal::kScope:
      throw DomainError(
          errc::kScopeInsufficient,
          "this API key's scope is '" + std::string(ToString(principal.scope)) +
              "'; the operation requires '" + std::string(ToString(floor.min_scope)) + "'",
          {{"required", ToString(floor.min_scope)}, {"granted", ToString(principal.scope)}});
    case Refusal::kIssuerRoleLost:
      throw DomainError(
          errc::kKeyIssuerRoleLost,
          "the user who issued this API key no longer holds the role it requires "
          "in workspace '" +
              principal.workspace_name + "'; a key from a member who holds the role is needed",
          {{"required", ToString(floor.min_role)}, {"held", HeldJson(principal.membership)}});
    case Refusal::kMembership:
      // No workspace at all (a person whose first sign-in found no membership): say so, rather
      // than name an empty workspace.
      if (principal.workspace_name.empty()) {
        throw DomainError(errc::kWorkspaceMembershipRequired,
                          "you are not a member of any workspace yet: ask a workspace admin to "
                          "add you",
                          {{"workspace", nullptr}});
      }
      throw DomainError(errc::kWorkspaceMembershipRequired,
                        "you are not a member of workspace '" + principal.workspace_name + "'",
                        {{"workspace", principal.workspace_name}});
    case Refusal::kRole:
    case Refusal::kNone:
      break;
  }
  throw DomainError(
      errc::kRoleRequired,
      "the operation requires the '" + std::string(ToString(floor.min_role)) +
          "' capability in workspace '" + principal.workspace_name + "'",
      {{"required", ToString(floor.min_role)}, {"held", HeldJson(principal.membership)}});
}

}  // namespace

void EnforceAccess(const Principal& principal, Operation operation) {
  const OperationAccess& floor = AccessOf(operation);
  Refusal refusal = Judge(principal, floor);
  if (refusal != Refusal::kNone) Throw(refusal, principal, floor);
}

bool IsAllowed(const Principal& principal, Operation operation) {
  return Judge(principal, AccessOf(operation)) == Refusal::kNone;
}

}  // namespace dp
