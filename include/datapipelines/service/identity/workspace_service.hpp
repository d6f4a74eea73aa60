#pragma once
// Workspaces and people over REST (rest-api §16.3, §17; auth.md §4.6, §11A): a workspace is
// addressed by name, and addressing it selects it the way DP-Workspace does — a workspace the
// caller cannot reach (unknown, not a member, deactivated) is workspace.not_found, never a 403.
// Members carry three flags; a person not yet known is invited by e-mail. The last admin can be
// neither removed nor demoted. Users are listed, read, activated, deactivated and granted or
// refused super admin by a super admin; nobody is created here (people arrive by signing in, or
// from the admin screen). Each verb writes its audit event. Every method blocks on the store.
#include <string>
#include <vector>

#include "datapipelines/service/audit/access_audit.hpp"
#include "datapipelines/service/identity/account_administration.hpp"
#include "datapipelines/service/identity/auth_records.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class Authenticator;

// What adding a member did: made them a member (their row existed), or invited the e-mail.
struct AddedMember {
  bool invited = false;
  Json view;
};

class WorkspaceService {
 public:
  // allowlist: datapipelines.auth.allowlist.domains — an invitation the sign-in would refuse is
  // refused when made.
  WorkspaceService(const AuthRecords& records, AccountAdministration& accounts,
                   Authenticator& authenticator, std::vector<std::string> allowlist);

  // The principal acting in workspace `name`: its flags there (every flag for a super admin,
  // who also reaches a deactivated one, to reactivate it). A key reaches its own workspace only.
  // A super admin entering one they hold no membership in is audited (auth.super_admin_acting).
  Principal Enter(const Principal& principal, const std::string& name,
                  const AccessTarget& target) const;

  Json ListOwn(const Principal& principal);  // [{name, display_name, author, promoter, admin, …}]
  Json Create(const Principal& principal, const std::string& name,
              const std::string& display_name);
  // The rest act in the workspace Enter selected.
  Json Get(const Principal& in_workspace);
  Json Update(const Principal& in_workspace, const std::optional<std::string>& display_name);
  Json SetActive(const Principal& in_workspace, bool active);
  Json Members(const Principal& in_workspace);  // {members: […], invitations: […]}
  AddedMember AddMember(const Principal& in_workspace, const std::string& email,
                        MemberFlags flags);
  Json SetMemberFlags(const Principal& in_workspace, const std::string& user_id,
                      MemberFlags flags);
  void RemoveMember(const Principal& in_workspace, const std::string& user_id);
  void RevokeInvitation(const Principal& in_workspace, const std::string& email);

  // --- people (rest-api §16.3) -----------------------------------------------------------------
  Json ListUsers(const Principal& principal, const std::string& query, int offset, int limit);
  Json GetUser(const Principal& principal, const std::string& user_id);
  Json SetUserActive(const Principal& principal, const std::string& user_id, bool active);
  Json SetSuperAdmin(const Principal& principal, const std::string& user_id, bool super_admin);

 private:
  Workspace Current(const Principal& in_workspace) const;
  Membership RequireMember(const Workspace& workspace, const std::string& user_id) const;
  User RequireUserById(const std::string& user_id) const;

  const AuthRecords& records_;
  AccountAdministration& accounts_;
  Authenticator& authenticator_;
  std::vector<std::string> allowlist_;
};

}  // namespace dp
