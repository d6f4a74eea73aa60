#pragma once
// Workspace administration for a signed-in person (ui-screens §4.12, §4.13, §4.3e): the members
// and roles of the ACTIVE workspace, and the instance's users and workspaces. The operator verbs
// of AccountAdministration (the CLI, where the shell is the operator) with the principal's checks
// in front:
//   Members                 any member of the active workspace (viewer and up)
//   SetMember, RemoveMember ws_admin of the active workspace (or super_admin) — member verbs
//                           follow the active workspace, never one named elsewhere
//   Users, Workspaces       super_admin
//   CreateUser              super_admin, signed in (it mints a password: auth.md §5A.7)
//   SetUserActive           super_admin, never on themselves
//   CreateWorkspace         super_admin; the creator becomes its ws_admin (as the CLI does)
// Refusals: auth.role_required {required}, auth.session.required, workspace.membership_required,
// user.not_found, user.validation.*, workspace.not_found, workspace.validation.* (DomainError).
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/service/identity/account_administration.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class AccountAdministration;
class WorkspaceService;
struct User;
struct Workspace;

// The JSON views of a user (no secret: {id, email, display_name, active, super_admin,
// created_at}) and of a workspace ({id, name, display_name, created_at}), for the admin page
// and the operator CLI alike.
Json UserView(const User& user);
Json WorkspaceView(const Workspace& workspace);

// A local account an instance admin created. Its one-time password went by mail, or — mail off
// or failed — is shown to the admin once (`credential.password`). When the membership asked for
// was refused, the account still stands and `membership_refusal` says why (ui-screens §4.12).
struct CreatedUser {
  Json user;  // UserView
  OneTimeCredential credential;
  std::optional<DomainError> membership_refusal;
};

struct NewUserRequest {
  std::string email;
  std::string display_name;  // empty: the email
  std::string workspace;     // empty: no membership
  MemberFlags flags;
};

class WorkspaceAdminService {
 public:
  // `workspaces` (may be null: no invitations) invites the e-mails nobody has an account for.
  explicit WorkspaceAdminService(AccountAdministration& auth,
                                 WorkspaceService* workspaces = nullptr)
      : auth_(auth), workspaces_(workspaces) {}

  // [{user_id, email, display_name, author, promoter, admin, joined_at}] of the active
  // workspace.
  Json Members(const Principal& principal);
  // Adds `email` to the active workspace with `flags`, or replaces its flags.
  void SetMember(const Principal& principal, const std::string& email, MemberFlags flags);
  void RemoveMember(const Principal& principal, const std::string& email);
  // Adds `email` to the active workspace; true when nobody has that e-mail yet and it was
  // invited instead (auth.md §4.6), to become a member at their first sign-in.
  bool AddMember(const Principal& principal, const std::string& email, MemberFlags flags);
  // [{email, author, promoter, admin, invited_by, invited_at}] of the active workspace.
  Json Invitations(const Principal& principal);
  // [UserView + {provider, local_password, must_change_password, locked}]
  Json Users(const Principal& principal);
  Json Workspaces(const Principal& principal);  // [WorkspaceView]
  CreatedUser CreateUser(const Principal& principal, const NewUserRequest& request);
  void SetUserActive(const Principal& principal, const std::string& email, bool active);
  // The local-account verbs of auth.md §5A.1, signed-in super admin only.
  OneTimeCredential ResetPassword(const Principal& principal, const std::string& email);
  void DisableLocalPassword(const Principal& principal, const std::string& email);
  void Unlock(const Principal& principal, const std::string& email);
  // WorkspaceView
  Json CreateWorkspace(const Principal& principal, const std::string& name,
                       const std::string& display_name);

 private:
  AccountAdministration& auth_;
  WorkspaceService* workspaces_;
};

}  // namespace dp
