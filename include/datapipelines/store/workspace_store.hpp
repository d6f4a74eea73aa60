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
};

struct Membership {
  std::string workspace_id;
  std::string user_id;
  MemberFlags flags;
  int64_t joined_at_ms = 0;
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
};

// The SQL adapter, written once in the portable subset for both backends.
std::unique_ptr<WorkspaceStore> OpenWorkspaceStore(SqlExecutor& sql);

}  // namespace dp
