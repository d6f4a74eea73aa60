#pragma once
// People and workspaces (auth.md §5A, §11A; workspaces design §5): users, passwords,
// workspaces and memberships — the operator verbs the CLI drives (the shell is the operator),
// a signed-in person's own password change, and the first-run bootstrap. A change that narrows
// what a user may do reaches the authenticator's cache at once. Thread-safe; every method
// blocks (store, Argon2): call from the blocking pool.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/service/identity/api_key_service.hpp"
#include "datapipelines/service/identity/auth_records.hpp"
#include "datapipelines/service/identity/principal.hpp"

namespace dp {

class Authenticator;

struct MemberInfo {
  std::string user_id;
  std::string email;
  std::string display_name;
  MemberFlags flags;
  int64_t joined_at_ms = 0;
};

struct BootstrapRequest {
  std::string admin_email;
  std::string admin_password;  // empty = generate one (returned once)
  std::string workspace_name = "default";
  std::string key_name = "bootstrap";
};

struct BootstrapResult {
  bool created_user = false;
  bool created_workspace = false;
  bool created_membership = false;
  bool created_key = false;
  std::string user_id;
  std::string workspace_id;
  std::string generated_password;   // set only when the user was created with a generated one
  std::optional<IssuedApiKey> key;  // set only when a key was created
};

class AccountAdministration {
 public:
  AccountAdministration(const AuthRecords& records, Authenticator& authenticator,
                        ApiKeyService& keys);

  // The instance verbs (revoke a user's keys, read the instance audit log): a super admin, and
  // never through a key (no key holds `admin`, auth.md §7.5).
  void RequireInstanceAdmin(const Principal& principal) const;

  // A signed-in person changes their own password (auth.md §5A.7: session-only, so a leaked
  // key cannot rotate its owner's password). The current password must verify; every other
  // session of the user ends.
  void ChangeOwnPassword(const Principal& principal, const std::string& current_password,
                         const std::string& new_password);

  // --- operator verbs ---------------------------------------------------------------------
  // `actor_user_id` (the UI's instance admin; empty for the CLI) goes on the audit event.
  User CreateUser(const std::string& email, const std::string& display_name,
                  const std::string& password, bool super_admin,
                  const std::string& actor_user_id = "");
  void SetUserActive(const std::string& email, bool active, const std::string& actor_user_id = "");
  // A random password for an account an operator or admin sets up (24 characters), handed over
  // once and out of band.
  static std::string NewOneTimePassword();
  // Operator reset. An empty password generates one, returned once; the user's open sessions
  // stay valid until they expire.
  std::string SetPassword(const std::string& email, const std::string& password);
  Workspace CreateWorkspace(const std::string& name, const std::string& display_name,
                            const std::string& created_by_email);
  void SetMembership(const std::string& workspace_name, const std::string& email,
                     MemberFlags flags);
  // False when the user was not a member.
  bool RemoveMembership(const std::string& workspace_name, const std::string& email);
  std::vector<User> ListUsers();  // password hashes cleared
  std::vector<Workspace> ListWorkspaces();
  std::vector<MemberInfo> ListMembers(const std::string& workspace_name);
  // Idempotent first run: the admin, the workspace, the membership and an author key, each
  // created only when missing.
  BootstrapResult Bootstrap(const BootstrapRequest& request);

 private:
  bool HasLiveAuthorKey(const User& user, const Workspace& workspace) const;

  const AuthRecords& records_;
  Authenticator& authenticator_;
  ApiKeyService& keys_;
};

}  // namespace dp
