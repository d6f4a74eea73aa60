// Workspaces and memberships (migration 0001), written once in the portable SQL subset.
#include "datapipelines/store/workspace_store.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include "datapipelines/store/sql_executor.hpp"
#include "datapipelines/util/ascii.hpp"
#include "sql_cells.hpp"

namespace dp {
namespace {

using sql_cells::All;
using sql_cells::Bool;
using sql_cells::First;
using sql_cells::Int;
using sql_cells::NullIfEmpty;
using sql_cells::NullIfZero;
using sql_cells::Select;
using sql_cells::Text;

constexpr const char* kWorkspaceColumns =
    "id, name, display_name, created_by, created_at_ms, deactivated_at_ms";
constexpr const char* kInvitationColumns =
    "workspace_id, email, author, promoter, admin, invited_by, invited_at_ms";
constexpr const char* kMemberColumns =
    "workspace_id, user_id, author, promoter, admin, joined_at_ms";

Workspace ToWorkspace(const SqlRow& r) {
  return Workspace{Text(r, 0), Text(r, 1), Text(r, 2), Text(r, 3), Int(r, 4), Int(r, 5)};
}

Membership ToMembership(const SqlRow& r) {
  return Membership{Text(r, 0), Text(r, 1),
                    MemberFlags{Int(r, 2) != 0, Int(r, 3) != 0, Int(r, 4) != 0}, Int(r, 5)};
}

Invitation ToInvitation(const SqlRow& r) {
  return Invitation{Text(r, 0), Text(r, 1),
                    MemberFlags{Int(r, 2) != 0, Int(r, 3) != 0, Int(r, 4) != 0}, Text(r, 5),
                    Int(r, 6)};
}

class SqlWorkspaceStore final : public WorkspaceStore {
 public:
  explicit SqlWorkspaceStore(SqlExecutor& sql) : sql_(sql) {}

  void InsertWorkspace(const Workspace& ws) override;
  std::optional<Workspace> FindWorkspaceById(const std::string& id) override;
  std::optional<Workspace> FindWorkspaceByName(const std::string& name) override;
  std::vector<Workspace> ListWorkspaces() override;
  void UpsertMembership(const Membership& m) override;
  std::optional<Membership> FindMembership(const std::string& workspace_id,
                                           const std::string& user_id) override;
  std::vector<Membership> ListMembers(const std::string& workspace_id) override;
  std::vector<Membership> ListMembershipsOfUser(const std::string& user_id) override;
  bool DeleteMembership(const std::string& workspace_id, const std::string& user_id) override;
  int64_t CountAdmins(const std::string& workspace_id) override;
  void SetDisplayName(const std::string& workspace_id, const std::string& name) override;
  void SetDeactivatedAt(const std::string& workspace_id, int64_t at_ms) override;
  void UpsertInvitation(const Invitation& invitation) override;
  std::vector<Invitation> ListInvitations(const std::string& workspace_id) override;
  bool DeleteInvitation(const std::string& workspace_id, const std::string& email) override;
  std::vector<Invitation> TakeInvitations(const std::string& email) override;

 private:
  SqlExecutor& sql_;
};

// ---- workspaces

void SqlWorkspaceStore::InsertWorkspace(const Workspace& ws) {
  sql_.Execute(std::string("INSERT INTO workspaces (") + kWorkspaceColumns +
                   ") VALUES ($1, $2, $3, $4, $5, $6)",
               {ws.id, ws.name, ws.display_name, NullIfEmpty(ws.created_by), ws.created_at_ms,
                NullIfZero(ws.deactivated_at_ms)});
}

std::optional<Workspace> SqlWorkspaceStore::FindWorkspaceById(const std::string& id) {
  return First(sql_.Query(Select(kWorkspaceColumns, "FROM workspaces WHERE id = $1"), {id}),
               &ToWorkspace);
}

std::optional<Workspace> SqlWorkspaceStore::FindWorkspaceByName(const std::string& name) {
  return First(sql_.Query(Select(kWorkspaceColumns, "FROM workspaces WHERE name = $1"), {name}),
               &ToWorkspace);
}

std::vector<Workspace> SqlWorkspaceStore::ListWorkspaces() {
  return All(sql_.Query(Select(kWorkspaceColumns, "FROM workspaces ORDER BY name"), {}),
             &ToWorkspace);
}

// ---- memberships

void SqlWorkspaceStore::UpsertMembership(const Membership& m) {
  // The original joined_at_ms survives a change of flags; an admin always authors (the
  // table's CHECK), so the flags are normalised before they are written.
  const MemberFlags flags = m.flags.Normalized();
  sql_.Execute(std::string("INSERT INTO workspace_members (") + kMemberColumns +
                   ") VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (workspace_id, user_id) "
                   "DO UPDATE SET author = excluded.author, promoter = excluded.promoter, "
                   "admin = excluded.admin",
               {m.workspace_id, m.user_id, Bool(flags.author), Bool(flags.promoter),
                Bool(flags.admin), m.joined_at_ms});
}

std::optional<Membership> SqlWorkspaceStore::FindMembership(const std::string& workspace_id,
                                                            const std::string& user_id) {
  return First(sql_.Query(Select(kMemberColumns,
                                 "FROM workspace_members WHERE workspace_id = $1 AND user_id = $2"),
                          {workspace_id, user_id}),
               &ToMembership);
}

std::vector<Membership> SqlWorkspaceStore::ListMembers(const std::string& workspace_id) {
  return All(sql_.Query(Select(kMemberColumns,
                               "FROM workspace_members WHERE workspace_id = $1 "
                               "ORDER BY joined_at_ms, user_id"),
                        {workspace_id}),
             &ToMembership);
}

std::vector<Membership> SqlWorkspaceStore::ListMembershipsOfUser(const std::string& user_id) {
  return All(sql_.Query(Select(kMemberColumns,
                               "FROM workspace_members WHERE user_id = $1 "
                               "ORDER BY joined_at_ms, workspace_id"),
                        {user_id}),
             &ToMembership);
}

bool SqlWorkspaceStore::DeleteMembership(const std::string& workspace_id,
                                         const std::string& user_id) {
  return sql_.Execute("DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2",
                      {workspace_id, user_id}) > 0;
}

int64_t SqlWorkspaceStore::CountAdmins(const std::string& workspace_id) {
  return Int(sql_.Query("SELECT COUNT(*) FROM workspace_members WHERE workspace_id = $1 AND "
                        "admin = 1",
                        {workspace_id})
                 .at(0),
             0);
}

void SqlWorkspaceStore::SetDisplayName(const std::string& workspace_id, const std::string& name) {
  sql_.Execute("UPDATE workspaces SET display_name = $2 WHERE id = $1", {workspace_id, name});
}

void SqlWorkspaceStore::SetDeactivatedAt(const std::string& workspace_id, int64_t at_ms) {
  sql_.Execute("UPDATE workspaces SET deactivated_at_ms = $2 WHERE id = $1",
               {workspace_id, NullIfZero(at_ms)});
}

// ---- invitations

void SqlWorkspaceStore::UpsertInvitation(const Invitation& i) {
  const MemberFlags flags = i.flags.Normalized();
  sql_.Execute(std::string("INSERT INTO workspace_invitations (") + kInvitationColumns +
                   ") VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (workspace_id, email) "
                   "DO UPDATE SET author = excluded.author, promoter = excluded.promoter, "
                   "admin = excluded.admin, invited_by = excluded.invited_by, "
                   "invited_at_ms = excluded.invited_at_ms",
               {i.workspace_id, AsciiLower(i.email), Bool(flags.author), Bool(flags.promoter),
                Bool(flags.admin), i.invited_by, i.invited_at_ms});
}

std::vector<Invitation> SqlWorkspaceStore::ListInvitations(const std::string& workspace_id) {
  return All(sql_.Query(Select(kInvitationColumns,
                               "FROM workspace_invitations WHERE workspace_id = $1 "
                               "ORDER BY invited_at_ms, email"),
                        {workspace_id}),
             &ToInvitation);
}

bool SqlWorkspaceStore::DeleteInvitation(const std::string& workspace_id,
                                         const std::string& email) {
  return sql_.Execute("DELETE FROM workspace_invitations WHERE workspace_id = $1 AND email = $2",
                      {workspace_id, AsciiLower(email)}) > 0;
}

std::vector<Invitation> SqlWorkspaceStore::TakeInvitations(const std::string& email) {
  // Deleted by the statement that reads them, so two first sign-ins racing on two instances
  // cannot both take one invitation.
  std::vector<Invitation> taken =
      All(sql_.Query("DELETE FROM workspace_invitations WHERE email = $1 AND workspace_id IN "
                     "(SELECT id FROM workspaces WHERE deactivated_at_ms IS NULL) "
                     "RETURNING workspace_id, email, author, promoter, admin, invited_by, "
                     "invited_at_ms",
                     {AsciiLower(email)}),
          &ToInvitation);
  std::sort(taken.begin(), taken.end(), [](const Invitation& a, const Invitation& b) {
    return std::tie(a.invited_at_ms, a.workspace_id) < std::tie(b.invited_at_ms, b.workspace_id);
  });
  return taken;
}

}  // namespace

std::unique_ptr<WorkspaceStore> OpenWorkspaceStore(SqlExecutor& sql) {
  return std::make_unique<SqlWorkspaceStore>(sql);
}

}  // namespace dp
