#include "datapipelines/service/identity/invitations.hpp"

#include "datapipelines/service/identity/account_rules.hpp"

namespace dp {

int MaterializeInvitations(const AuthRecords& records, const User& user) {
  int made = 0;
  for (const Invitation& invitation : records.workspaces().TakeInvitations(user.email)) {
    if (!records.workspaces().FindMembership(invitation.workspace_id, user.id)) {
      records.workspaces().UpsertMembership(
          Membership{invitation.workspace_id, user.id, invitation.flags, invitation.invited_at_ms});
      ++made;
    }
    records.Audit("workspace.invitation_materialised", user.id, "", invitation.workspace_id, "",
                  {{"email", user.email},
                   {"flags", FlagsJson(invitation.flags)},
                   {"inviter", invitation.invited_by}});
  }
  return made;
}

}  // namespace dp
