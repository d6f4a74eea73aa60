#pragma once
// Who is asking, and in which workspace. Travels with every call as an argument (MCP spec
// §4.1: never thread-local state).
#include <optional>
#include <string>

#include "datapipelines/domain/access.hpp"

namespace dp {

struct Principal {
  std::string user_id;
  std::string email;
  std::string display_name;
  std::string key_id;        // empty for a session principal
  std::string workspace_id;  // the key's pinned workspace, or the session's active one
  std::string workspace_name;
  // A key's own scope; for a session, the highest scope the user's flags allow.
  Scope scope = Scope::kRead;
  // The issuer's CURRENT membership flags in the workspace (re-read within the cache TTL);
  // nullopt = not (or no longer) a member.
  std::optional<MemberFlags> membership;
  KeyKind kind = KeyKind::kUser;
  bool super_admin = false;
  // A super admin acting in a workspace where they hold no membership of their own: every
  // such request is audited as auth.super_admin_acting.
  bool acting_as_super_admin = false;
  bool via_session = false;
  // The session row this request came with (its token's SHA-256); empty for a key. Lets a
  // password change end the user's OTHER sessions and keep this one.
  std::string session_token_hash;
  // A password-opened session of a user whose password is one-time: every route but the
  // change itself and sign-out answers auth.password.change_required (auth.md §5A.4).
  bool password_change_required = false;
};

// Whether the principal holds the admin flag in its workspace (a super admin acting there
// holds every flag).
inline bool HoldsWorkspaceAdmin(const Principal& principal) {
  return principal.membership && principal.membership->admin;
}

}  // namespace dp
