#include "datapipelines/service/identity/workspace_admin_service.hpp"

#include "datapipelines/service/identity/workspace_service.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/identity/account_administration.hpp"
#include "datapipelines/service/identity/account_rules.hpp"
#include "datapipelines/util/clock.hpp"

namespace dp {
namespace {

void RequireSuperAdmin(const Principal& principal) {
  if (!principal.super_admin) {
    throw DomainError(errc::kRoleRequired, "Only an instance admin may do that.",
                      Json{{"required", "super_admin"}});
  }
}

}  // namespace

Json UserView(const User& u) {
  return {{"id", u.id},
          {"email", u.email},
          {"display_name", u.display_name},
          {"active", u.is_active},
          {"super_admin", u.is_super_admin},
          {"created_at", FormatIso8601Ms(u.created_at_ms)}};
}

Json WorkspaceView(const Workspace& w) {
  return {{"id", w.id},
          {"name", w.name},
          {"display_name", w.display_name},
          {"created_at", FormatIso8601Ms(w.created_at_ms)}};
}

Json WorkspaceAdminService::Members(const Principal& principal) {
  EnforceAccess(principal, Operation::kWorkspaceMembersList);
  Json out = Json::array();
  for (const auto& m : auth_.ListMembers(principal.workspace_name)) {
    out.push_back({{"user_id", m.user_id},
                   {"email", m.email},
                   {"display_name", m.display_name},
                   {"author", m.flags.author},
                   {"promoter", m.flags.promoter},
                   {"admin", m.flags.admin},
                   {"joined_at", FormatIso8601Ms(m.joined_at_ms)}});
  }
  return out;
}

void WorkspaceAdminService::SetMember(const Principal& principal, const std::string& email,
                                      MemberFlags flags) {
  EnforceAccess(principal, Operation::kWorkspaceMembersSet);
  auth_.SetMembership(principal.workspace_name, email, flags);
}

bool WorkspaceAdminService::AddMember(const Principal& principal, const std::string& email,
                                      MemberFlags flags) {
  if (!workspaces_) {
    SetMember(principal, email, flags);
    return false;
  }
  return workspaces_->AddMember(principal, email, flags).invited;
}

Json WorkspaceAdminService::Invitations(const Principal& principal) {
  if (!workspaces_) return Json::array();
  return workspaces_->Members(principal)["invitations"];
}

void WorkspaceAdminService::RemoveMember(const Principal& principal, const std::string& email) {
  EnforceAccess(principal, Operation::kWorkspaceMembersRemove);
  if (!auth_.RemoveMembership(principal.workspace_name, email)) {
    throw DomainError(errc::kUserNotFound, "No member " + email + " in this workspace.",
                      Json{{"email", email}, {"workspace", principal.workspace_name}});
  }
}

Json WorkspaceAdminService::Users(const Principal& principal) {
  RequireSuperAdmin(principal);
  Json out = Json::array();
  for (const AccountSummary& account : auth_.ListAccounts()) {
    Json view = UserView(account.user);
    view["provider"] = account.user.provider;
    view["local_password"] = account.local_password;
    view["must_change_password"] = account.user.must_change_password;
    view["locked"] = account.locked;
    out.push_back(std::move(view));
  }
  return out;
}

Json WorkspaceAdminService::Workspaces(const Principal& principal) {
  RequireSuperAdmin(principal);
  Json out = Json::array();
  for (const auto& w : auth_.ListWorkspaces()) out.push_back(WorkspaceView(w));
  return out;
}

CreatedUser WorkspaceAdminService::CreateUser(const Principal& principal,
                                              const NewUserRequest& request) {
  CreatedUser created;
  CreatedLocalUser local =
      auth_.CreateLocalUser(principal, request.email, request.display_name, request.workspace);
  created.user = UserView(local.user);
  created.credential = std::move(local.credential);
  if (!request.workspace.empty()) {
    try {
      auth_.SetMembership(request.workspace, created.user["email"].get<std::string>(),
                          request.flags);
    } catch (const DomainError& refusal) {
      created.membership_refusal = refusal;
    }
  }
  return created;
}

void WorkspaceAdminService::SetUserActive(const Principal& principal, const std::string& email,
                                          bool active) {
  RequireSuperAdmin(principal);
  if (!active && NormalizeEmail(email) == NormalizeEmail(principal.email)) {
    throw DomainError(errc::kUserSelfDeactivation,
                      "You cannot deactivate yourself: another instance admin must.",
                      Json{{"email", email}});
  }
  auth_.SetUserActive(email, active, principal.user_id);
}

OneTimeCredential WorkspaceAdminService::ResetPassword(const Principal& principal,
                                                       const std::string& email) {
  return auth_.ResetPassword(principal, email);
}

void WorkspaceAdminService::DisableLocalPassword(const Principal& principal,
                                                 const std::string& email) {
  auth_.DisableLocalPassword(principal, email);
}

void WorkspaceAdminService::Unlock(const Principal& principal, const std::string& email) {
  auth_.Unlock(principal, email);
}

Json WorkspaceAdminService::CreateWorkspace(const Principal& principal, const std::string& name,
                                            const std::string& display_name) {
  RequireSuperAdmin(principal);
  return WorkspaceView(auth_.CreateWorkspace(name, display_name, principal.email));
}

}  // namespace dp
