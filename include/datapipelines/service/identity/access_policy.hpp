#pragma once
// The two-axis check of MCP spec §4.1 / auth.md §7.6: a key must satisfy both its own scope
// and its issuer's current membership flags, at the floor the operation table (operation.hpp)
// gives. Pure: the principal already carries the re-read flags.
#include "datapipelines/service/identity/operation.hpp"
#include "datapipelines/service/identity/principal.hpp"

namespace dp {

// Throws DomainError when `principal` is below the operation's floor:
//  - auth.scope.insufficient {required, granted}: a key's scope is below min_scope;
//  - auth.key_issuer_role_lost {required, held}: a key whose issuer left the workspace, or was
//    demoted below what the key was issued with, and no longer holds min_role;
//  - auth.role_required {required, held}: the caller's flags do not reach min_role;
//  - workspace.membership_required {workspace}: a session user who is not a member.
// A super_admin passes the role axis (the key's scope still applies); a kSuperAdmin floor
// admits nobody else.
void EnforceAccess(const Principal& principal, Operation operation);
// The same check as a question (the UI greys out what the user may not do).
bool IsAllowed(const Principal& principal, Operation operation);

}  // namespace dp
