#pragma once
// Invitations becoming memberships (auth.md §4.6): when a person's account exists — their first
// sign-in through a provider, or an admin creating their local account — every pending
// invitation of their e-mail into an active workspace becomes a membership with the invited
// flags, joined at the invitation's date (so "first membership" is the first invitation), and
// is gone. Invitations into deactivated workspaces wait for reactivation.
#include "datapipelines/service/identity/auth_records.hpp"

namespace dp {

// Blocks on the store; returns how many became memberships. Each is audited
// workspace.invitation_materialised with its inviter.
int MaterializeInvitations(const AuthRecords& records, const User& user);

}  // namespace dp
