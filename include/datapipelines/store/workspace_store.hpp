#pragma once
// The workspace port (metadata-db §4.2–4.3): workspaces and who is a member with which capability flags.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/domain/access.hpp"

namespace dp {

class SqlExecutor;

struct Workspace {
  std::string id;
  std::string name;  // [a-z0-9_-]{1,63}, globally unique
  std::string display_name;
  std::string created_by;  // user id
  int64_t created_at_ms = 0;
  int64_t deactivated_at_ms = 0;  // 0: active; else hidden from all but a super admin
  bool active() const { return deactivated_at_ms == 0; }
};

struct Membership {
  std::string workspace_id;
  std::string user_id;
  MemberFlags flags;
  int64_t joined_at_ms = 0;
};

// A membership waiting for its person, keyed by the lower-cased e-mail (auth.md §4.6).
struct Invitation {
  std::string workspace_id;
  std::string email;
  MemberFlags flags;
  std::string invited_by;  // user id
  int64_t invited_at_ms = 0;
};

class WorkspaceStore {
 public:
  virtual ~WorkspaceStore() = default;
  // Throws DuplicateKeyError when the id or the name exists.
  virtual void InsertWorkspace(const Workspace& ws) = 0;
  virtual std::optional<Workspace> FindWorkspaceById(const std::string& id) = 0;
  virtual std::optional<Workspace> FindWorkspaceByName(const std::string& name) = 0;
  virtual std::vector<Workspace> ListWorkspaces() = 0;

  // Upsert replaces the flags and keeps the first joined_at_ms.
  virtual void UpsertMembership(const Membership& m) = 0;
  virtual std::optional<Membership> FindMembership(const std::string& workspace_id,
                                                   const std::string& user_id) = 0;
  virtual std::vector<Membership> ListMembers(const std::string& workspace_id) = 0;
  virtual std::vector<Membership> ListMembershipsOfUser(const std::string& user_id) = 0;
  virtual bool DeleteMembership(const std::string& workspace_id, const std::string& user_id) = 0;
  // Members holding the admin flag.
  virtual int64_t CountAdmins(const std::string& workspace_id) = 0;

  virtual void SetDisplayName(const std::string& workspace_id, const std::string& name) = 0;
  // 0 reactivates.
  virtual void SetDeactivatedAt(const std::string& workspace_id, int64_t at_ms) = 0;

  // Upsert: a re-invite replaces the flags, inviter and date (the latest decision wins).
  virtual void UpsertInvitation(const Invitation& invitation) = 0;
  virtual std::vector<Invitation> ListInvitations(const std::string& workspace_id) = 0;
  virtual bool DeleteInvitation(const std::string& workspace_id, const std::string& email) = 0;
  // The invitations of `email` into ACTIVE workspaces, deleted as they are read (oldest
  // first): an account coming into existence takes them once. Those into deactivated
  // workspaces wait.
  virtual std::vector<Invitation> TakeInvitations(const std::string& email) = 0;
};

// The SQL adapter, written once in the portable subset for both backends.
std::unique_ptr<WorkspaceStore> OpenWorkspaceStore(SqlExecutor& sql);

}  // namespace dp
