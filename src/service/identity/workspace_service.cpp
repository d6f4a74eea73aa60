#include "datapipelines/service/identity/workspace_service.hpp"

#include <algorithm>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/identity/account_rules.hpp"
#include "datapipelines/service/identity/authenticator.hpp"
#include "datapipelines/service/identity/workspace_admin_service.hpp"
#include "datapipelines/util/clock.hpp"

namespace dp {
namespace {

DomainError NotFound(const std::string& name) {
  return DomainError(errc::kWorkspaceNotFound, "Workspace not found.", Json{{"workspace", name}});
}

Json WorkspaceDetail(const Workspace& w) {
  Json view = WorkspaceView(w);
  view["active"] = w.active();
  view["deactivated_at"] = w.active() ? Json() : Json(FormatIso8601Ms(w.deactivated_at_ms));
  return view;
}

Json MemberView(const Membership& m, const User& user) {
  Json view = FlagsJson(m.flags);
  view["user_id"] = m.user_id;
  view["email"] = user.email;
  view["display_name"] = user.display_name;
  view["joined_at"] = FormatIso8601Ms(m.joined_at_ms);
  return view;
}

Json InvitationView(const Invitation& i) {
  Json view = FlagsJson(i.flags);
  view["email"] = i.email;
  view["invited_by"] = i.invited_by;
  view["invited_at"] = FormatIso8601Ms(i.invited_at_ms);
  return view;
}

}  // namespace

WorkspaceService::WorkspaceService(const AuthRecords& records, AccountAdministration& accounts,
                                   Authenticator& authenticator, std::vector<std::string> allowlist)
    : records_(records),
      accounts_(accounts),
      authenticator_(authenticator),
      allowlist_(std::move(allowlist)) {}

Principal WorkspaceService::Enter(const Principal& principal, const std::string& name,
                                  const AccessTarget& target) const {
  if (!principal.via_session) {
    // A key is pinned: its workspace is the only one it can name.
    if (name != principal.workspace_name) throw NotFound(name);
    return principal;
  }
  auto workspace = records_.workspaces().FindWorkspaceByName(name);
  if (!workspace) throw NotFound(name);
  auto membership = records_.workspaces().FindMembership(workspace->id, principal.user_id);
  const bool reachable = principal.super_admin || (membership && workspace->active());
  if (!reachable) throw NotFound(name);
  Principal in_workspace = principal;
  in_workspace.workspace_id = workspace->id;
  in_workspace.workspace_name = workspace->name;
  in_workspace.membership = membership ? membership->flags : MemberFlags{true, true, true};
  in_workspace.acting_as_super_admin = !membership;
  RecordSuperAdminActing(records_.audit_log(), in_workspace, target);
  return in_workspace;
}

Workspace WorkspaceService::Current(const Principal& in_workspace) const {
  auto workspace = records_.workspaces().FindWorkspaceById(in_workspace.workspace_id);
  if (!workspace) throw NotFound(in_workspace.workspace_name);
  return *workspace;
}

Json WorkspaceService::ListOwn(const Principal& principal) {
  Json out = Json::array();
  if (!principal.via_session) {
    // A key's one workspace.
    if (auto workspace = records_.workspaces().FindWorkspaceById(principal.workspace_id)) {
      Json view = WorkspaceDetail(*workspace);
      view.update(FlagsJson(principal.membership.value_or(MemberFlags{})));
      out.push_back(std::move(view));
    }
    return out;
  }
  for (const Membership& m : records_.workspaces().ListMembershipsOfUser(principal.user_id)) {
    auto workspace = records_.workspaces().FindWorkspaceById(m.workspace_id);
    if (!workspace || !workspace->active()) continue;  // deactivated: as if it never existed
    Json view = WorkspaceDetail(*workspace);
    view.update(FlagsJson(m.flags));
    view["joined_at"] = FormatIso8601Ms(m.joined_at_ms);
    out.push_back(std::move(view));
  }
  return out;
}

Json WorkspaceService::Create(const Principal& principal, const std::string& name,
                              const std::string& display_name) {
  EnforceAccess(principal, Operation::kWorkspacesCreate);
  // The creator takes no membership: a super admin is a member of every workspace already.
  return WorkspaceDetail(
      accounts_.CreateWorkspace(name, display_name, principal.email, /*creator_joins=*/false));
}

Json WorkspaceService::Get(const Principal& in_workspace) {
  EnforceAccess(in_workspace, Operation::kWorkspacesGet);
  return WorkspaceDetail(Current(in_workspace));
}

Json WorkspaceService::Update(const Principal& in_workspace,
                              const std::optional<std::string>& display_name) {
  EnforceAccess(in_workspace, Operation::kWorkspacesUpdate);
  Workspace workspace = Current(in_workspace);
  if (display_name && *display_name != workspace.display_name) {
    if (display_name->empty() || Utf8Length(*display_name) > 200) {
      throw DomainError(errc::kRequestInvalid, "'display_name' is 1 to 200 characters.",
                        Json{{"field", "display_name"}});
    }
    records_.workspaces().SetDisplayName(workspace.id, *display_name);
    records_.Audit("workspace.updated", in_workspace.user_id, in_workspace.key_id, workspace.id, "",
                   {{"from", workspace.display_name}, {"to", *display_name}});
    workspace.display_name = *display_name;
  }
  return WorkspaceDetail(workspace);
}

Json WorkspaceService::SetActive(const Principal& in_workspace, bool active) {
  EnforceAccess(in_workspace, Operation::kWorkspacesDeactivate);
  Workspace workspace = Current(in_workspace);
  if (workspace.active() != active) {
    workspace.deactivated_at_ms = active ? 0 : records_.Now();
    records_.workspaces().SetDeactivatedAt(workspace.id, workspace.deactivated_at_ms);
    // Sessions and keys pinned there learn it within the validation cache's window; this
    // instance at once.
    authenticator_.ForgetAll();
    records_.Audit(active ? "workspace.reactivated" : "workspace.deactivated", in_workspace.user_id,
                   in_workspace.key_id, workspace.id, "", {{"name", workspace.name}});
  }
  return WorkspaceDetail(workspace);
}

Json WorkspaceService::Members(const Principal& in_workspace) {
  EnforceAccess(in_workspace, Operation::kWorkspaceMembersList);
  Workspace workspace = Current(in_workspace);
  Json members = Json::array();
  for (const Membership& m : records_.workspaces().ListMembers(workspace.id)) {
    if (auto user = records_.users().FindUserById(m.user_id)) {
      members.push_back(MemberView(m, *user));
    }
  }
  Json invitations = Json::array();
  for (const Invitation& i : records_.workspaces().ListInvitations(workspace.id)) {
    invitations.push_back(InvitationView(i));
  }
  return Json{{"members", std::move(members)}, {"invitations", std::move(invitations)}};
}

AddedMember WorkspaceService::AddMember(const Principal& in_workspace, const std::string& email,
                                        MemberFlags flags) {
  EnforceAccess(in_workspace, Operation::kWorkspaceMembersSet);
  Workspace workspace = Current(in_workspace);
  if (!workspace.active()) {
    throw DomainError(errc::kWorkspaceInactive, "This workspace is deactivated.",
                      Json{{"workspace", workspace.name}});
  }
  const std::string normalized = NormalizeEmail(email);
  if (!IsValidEmail(normalized)) {
    throw DomainError(errc::kUserEmailInvalid, "The email address is not valid.",
                      Json{{"field", "email"}});
  }
  if (auto user = records_.users().FindUserByEmail(normalized)) {
    // An existing member is returned unchanged: changing flags is the PUT.
    if (!records_.workspaces().FindMembership(workspace.id, user->id)) {
      accounts_.SetMembership(workspace.name, normalized, flags);
    }
    return {false,
            MemberView(*records_.workspaces().FindMembership(workspace.id, user->id), *user)};
  }
  // An invitation the sign-in would refuse could never be honoured.
  if (!EmailDomainAllowed(allowlist_, normalized)) {
    // The sign-in's own code, at 400 here: the request is the defect (rest-api §17.7).
    constexpr ErrorCode kRefusedAtInvite{errc::kLoginDomainNotAllowed.code, 400};
    throw DomainError(kRefusedAtInvite,
                      "People of this e-mail domain may not sign in to this deployment.",
                      Json{{"field", "email"}});
  }
  Invitation invitation{workspace.id, normalized, flags.Normalized(), in_workspace.user_id,
                        records_.Now()};
  records_.workspaces().UpsertInvitation(invitation);
  records_.Audit("workspace.member_invited", in_workspace.user_id, in_workspace.key_id,
                 workspace.id, "", {{"email", normalized}, {"flags", FlagsJson(flags)}});
  Json view = FlagsJson(flags);
  view["invited"] = true;
  view["email"] = normalized;
  return {true, std::move(view)};
}

Membership WorkspaceService::RequireMember(const Workspace& workspace,
                                           const std::string& user_id) const {
  // One answer for every id that names no member here, so members cannot be probed.
  auto membership = records_.workspaces().FindMembership(workspace.id, user_id);
  if (!membership) throw NotFound(workspace.name);
  return *membership;
}

User WorkspaceService::RequireUserById(const std::string& user_id) const {
  auto user = records_.users().FindUserById(user_id);
  if (!user) {
    throw DomainError(errc::kUserNotFound, "No such user.", Json{{"user_id", user_id}});
  }
  return *user;
}

Json WorkspaceService::SetMemberFlags(const Principal& in_workspace, const std::string& user_id,
                                      MemberFlags flags) {
  EnforceAccess(in_workspace, Operation::kWorkspaceMembersSet);
  Workspace workspace = Current(in_workspace);
  Membership membership = RequireMember(workspace, user_id);
  User user = RequireUserById(user_id);
  accounts_.SetMembership(workspace.name, user.email, flags);
  membership.flags = flags.Normalized();
  return MemberView(membership, user);
}

void WorkspaceService::RemoveMember(const Principal& in_workspace, const std::string& user_id) {
  EnforceAccess(in_workspace, Operation::kWorkspaceMembersRemove);
  Workspace workspace = Current(in_workspace);
  RequireMember(workspace, user_id);
  accounts_.RemoveMembership(workspace.name, RequireUserById(user_id).email);
}

void WorkspaceService::RevokeInvitation(const Principal& in_workspace, const std::string& email) {
  EnforceAccess(in_workspace, Operation::kWorkspaceMembersRemove);
  Workspace workspace = Current(in_workspace);
  const std::string normalized = NormalizeEmail(email);
  if (!records_.workspaces().DeleteInvitation(workspace.id, normalized)) {
    throw DomainError(errc::kWorkspaceInvitationNotFound, "No pending invitation for this e-mail.",
                      Json{{"email", normalized}});
  }
  records_.Audit("workspace.invitation_revoked", in_workspace.user_id, in_workspace.key_id,
                 workspace.id, "", {{"email", normalized}});
}

// ---- people

Json WorkspaceService::ListUsers(const Principal& principal, const std::string& query, int offset,
                                 int limit) {
  EnforceAccess(principal, Operation::kUsersList);
  const std::string needle = NormalizeEmail(query);
  std::vector<AccountSummary> accounts = accounts_.ListAccounts();
  std::erase_if(accounts, [&](const AccountSummary& a) {
    return !needle.empty() && a.user.email.find(needle) == std::string::npos &&
           NormalizeEmail(a.user.display_name).find(needle) == std::string::npos;
  });
  offset = std::max(0, offset);
  limit = std::clamp(limit, 1, 200);
  Json items = Json::array();
  for (std::size_t i = offset; i < accounts.size() && items.size() < std::size_t(limit); ++i) {
    Json view = UserView(accounts[i].user);
    view["provider"] = accounts[i].user.provider;
    view["local_password"] = accounts[i].local_password;
    view["locked"] = accounts[i].locked;
    items.push_back(std::move(view));
  }
  return Json{{"items", std::move(items)},
              {"pagination",
               {{"offset", offset},
                {"limit", limit},
                {"total", accounts.size()},
                {"has_more", std::size_t(offset + limit) < accounts.size()}}}};
}

Json WorkspaceService::GetUser(const Principal& principal, const std::string& user_id) {
  EnforceAccess(principal, Operation::kUsersList);
  return UserView(WithoutSecret(RequireUserById(user_id)));
}

Json WorkspaceService::SetUserActive(const Principal& principal, const std::string& user_id,
                                     bool active) {
  EnforceAccess(principal, Operation::kUsersSetActive);
  User user = RequireUserById(user_id);
  if (!active && user.id == principal.user_id) {
    throw DomainError(errc::kUserSelfDeactivation,
                      "You cannot deactivate yourself: another super admin must.",
                      Json{{"user_id", user_id}});
  }
  accounts_.SetUserActive(user.email, active, principal.user_id);
  user.is_active = active;
  return UserView(WithoutSecret(std::move(user)));
}

Json WorkspaceService::SetSuperAdmin(const Principal& principal, const std::string& user_id,
                                     bool super_admin) {
  EnforceAccess(principal, Operation::kUsersSetSuperAdmin);
  User user = RequireUserById(user_id);
  if (!super_admin && user.id == principal.user_id) {
    throw DomainError(errc::kUserSelfAdminRevocation,
                      "You cannot take your own super admin away: another super admin must.",
                      Json{{"user_id", user_id}});
  }
  if (user.is_super_admin != super_admin) {
    records_.users().SetUserSuperAdmin(user.id, super_admin);
    authenticator_.ForgetUser(user.id);
    records_.Audit(super_admin ? "auth.user.admin_granted" : "auth.user.admin_revoked", user.id,
                   principal.key_id, "", "",
                   {{"email", user.email}, {"by_user_id", principal.user_id}});
    user.is_super_admin = super_admin;
  }
  return UserView(WithoutSecret(std::move(user)));
}

}  // namespace dp
