#pragma once
// Workspace administration for a signed-in person (ui-screens §4.12, §4.13, §4.3e): the members
// and roles of the ACTIVE workspace, and the instance's users and workspaces. The operator verbs
// of AuthService (the CLI, where the shell is the operator) with the principal's checks in front:
//   Members                 any member of the active workspace (viewer and up)
//   SetMember, RemoveMember ws_admin of the active workspace (or super_admin) — member verbs
//                           follow the active workspace, never one named elsewhere
//   Users, Workspaces       super_admin
// Refusals: auth.role_required {required}, workspace.membership_required, user.not_found,
// workspace.not_found (DomainError).
#include <string>
#include <vector>

#include "datapipelines/auth/principal.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class AuthService;

class WorkspaceAdminService {
 public:
  explicit WorkspaceAdminService(AuthService& auth) : auth_(auth) {}

  // [{user_id, email, display_name, role, joined_at}] of the active workspace.
  Json Members(const Principal& principal);
  // Adds `email` to the active workspace with `role`, or changes its role.
  void SetMember(const Principal& principal, const std::string& email, Role role);
  void RemoveMember(const Principal& principal, const std::string& email);
  // [{id, email, display_name, active, super_admin, created_at}]
  Json Users(const Principal& principal);
  // [{id, name, display_name, created_at}]
  Json Workspaces(const Principal& principal);

 private:
  AuthService& auth_;
};

}  // namespace dp
