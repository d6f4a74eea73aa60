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

#include "datapipelines/mail/mail_outcome.hpp"
#include "datapipelines/service/identity/api_key_service.hpp"
#include "datapipelines/service/identity/auth_records.hpp"
#include "datapipelines/service/identity/principal.hpp"

namespace dp {

class Authenticator;
class MailNotifier;

// A one-time password an administrator handed out (a new local account, a reset) and what the
// mail did with it. With mail on and the mail sent, `password` is empty: it went to the person
// and nobody else sees it (auth.md §5A.8). Otherwise the administrator is shown it, once.
struct OneTimeCredential {
  std::string password;
  MailOutcome mail;
};

struct CreatedLocalUser {
  User user;  // no secret
  OneTimeCredential credential;
};

struct MemberInfo {
  std::string user_id;
  std::string email;
  std::string display_name;
  MemberFlags flags;
  int64_t joined_at_ms = 0;
};

// A user as the instance admin's list shows them: the row without its hash, whether it has a
// password at all, and whether a lockout holds it now.
struct AccountSummary {
  User user;
  bool local_password = false;
  bool locked = false;
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
  // `mail` may be null (no notices: as if mail were off).
  AccountAdministration(const AuthRecords& records, Authenticator& authenticator,
                        ApiKeyService& keys, MailNotifier* mail = nullptr);

  // The instance verbs (revoke a user's keys, read the instance audit log): a super admin, and
  // never through a key (no key holds `admin`, auth.md §7.5).
  void RequireInstanceAdmin(const Principal& principal) const;

  // A signed-in person changes their own password (auth.md §5A.4, §5A.7: session-only, so a
  // leaked key cannot rotate its owner's password). The current password must verify, under
  // the same lockout as sign-in; the new one is 12 to 128 characters; a one-time password is
  // settled; every other session of the user ends.
  void ChangeOwnPassword(const Principal& principal, const std::string& current_password,
                         const std::string& new_password, std::string_view source_ip = {});
  // Whether the user can sign in with a password at all (false: identity provider only).
  bool HasLocalPassword(const std::string& user_id);

  // --- an instance admin's verbs on local accounts (auth.md §5A.1), signed in --------------
  // A local account with a one-time password, mailed (welcome) when mail is on; the operators
  // are told (New user). `actor` is the admin.
  CreatedLocalUser CreateLocalUser(const Principal& actor, const std::string& email,
                                   const std::string& display_name, const std::string& workspace);
  // A new one-time password: the change is forced again, the lockout cleared, the person's
  // sessions ended; mailed (password reset) when mail is on.
  OneTimeCredential ResetPassword(const Principal& actor, const std::string& email);
  // The password goes (the account signs in through an identity provider only); its
  // password-opened sessions end.
  void DisableLocalPassword(const Principal& actor, const std::string& email);
  // Clears a lockout without touching the password.
  void Unlock(const Principal& actor, const std::string& email);
  // Milliseconds the account stays locked (0 = not locked).
  int64_t LockedForMs(const std::string& email);

  // --- operator verbs ---------------------------------------------------------------------
  // `actor_user_id` (the UI's instance admin; empty for the CLI) goes on the audit event.
  // `one_time`: the password must be replaced at first sign-in (a generated one); an operator's
  // own explicit password is not.
  User CreateUser(const std::string& email, const std::string& display_name,
                  const std::string& password, bool super_admin,
                  const std::string& actor_user_id = "", bool one_time = false);
  void SetUserActive(const std::string& email, bool active, const std::string& actor_user_id = "");
  // A random password for an account an operator or admin sets up (24 characters), handed over
  // once and out of band.
  static std::string NewOneTimePassword();
  // Operator reset. An empty password generates a one-time one, returned once; an explicit one
  // is the operator's and is kept. Either way the lockout is cleared and the user's sessions
  // end.
  std::string SetPassword(const std::string& email, const std::string& password);
  // `creator_joins`: the creator becomes its admin (the CLI's --owner-email, the admin screen);
  // over REST a super admin creates it without a membership of their own.
  Workspace CreateWorkspace(const std::string& name, const std::string& display_name,
                            const std::string& created_by_email, bool creator_joins = true);
  void SetMembership(const std::string& workspace_name, const std::string& email,
                     MemberFlags flags);
  // False when the user was not a member.
  bool RemoveMembership(const std::string& workspace_name, const std::string& email);
  std::vector<User> ListUsers();  // password hashes cleared
  std::vector<AccountSummary> ListAccounts();
  std::vector<Workspace> ListWorkspaces();
  std::vector<MemberInfo> ListMembers(const std::string& workspace_name);
  // Idempotent first run: the admin, the workspace, the membership and an author key, each
  // created only when missing.
  BootstrapResult Bootstrap(const BootstrapRequest& request);

 private:
  bool HasLiveAuthorKey(const User& user, const Workspace& workspace) const;
  // workspace.last_admin (409) when the workspace has a single admin.
  void RequireAnotherAdmin(const Workspace& workspace) const;
  // Replaces the password, clears the lockout, ends every session of the user.
  void ReplacePassword(const User& user, const std::string& password, bool one_time);
  void TellOperators(const User& user, const std::string& created_by, const std::string& workspace);

  const AuthRecords& records_;
  Authenticator& authenticator_;
  ApiKeyService& keys_;
  MailNotifier* mail_;
};

}  // namespace dp
