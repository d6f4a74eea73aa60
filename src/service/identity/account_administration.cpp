#include "datapipelines/service/identity/account_administration.hpp"

#include <algorithm>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/mail/mail_notifier.hpp"
#include "datapipelines/service/identity/account_rules.hpp"
#include "datapipelines/service/identity/authenticator.hpp"
#include "datapipelines/service/identity/invitations.hpp"
#include "datapipelines/store/duplicate_key_error.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

// The audit details of an operator verb: who did it, when it was not the shell.
Json WithActor(Json details, const std::string& actor_user_id) {
  if (!actor_user_id.empty()) details["by_user_id"] = actor_user_id;
  return details;
}

// The floor and ceiling of a chosen password (auth.md §5A.5): length is what resists offline
// cracking; the ceiling bounds the Argon2 input.
void RequireStrongPassword(const std::string& password) {
  const std::size_t length = Utf8Length(password);
  if (length < kMinPasswordChars) {
    throw DomainError(errc::kUserPasswordWeak, "the password must be at least 12 characters",
                      {{"min_length", kMinPasswordChars}});
  }
  if (length > kMaxPasswordChars) {
    throw DomainError(errc::kUserPasswordTooLong, "the password must be at most 128 characters",
                      {{"max_length", kMaxPasswordChars}});
  }
}

void RequireSignedInAdmin(const Principal& actor, std::string_view what) {
  if (!actor.super_admin) {
    throw DomainError(errc::kRoleRequired, "Only an instance admin may do that.",
                      Json{{"required", "super_admin"}});
  }
  if (!actor.via_session) {
    throw DomainError(
        errc::kSessionRequired,
        std::string(what) + " mints or removes a password: sign in; an API key cannot do it.");
  }
}

// The credential as the administrator may see it: the password only when it did not go by mail.
OneTimeCredential Handed(std::string password, MailOutcome mail) {
  if (mail.sent()) password.clear();
  return OneTimeCredential{std::move(password), std::move(mail)};
}

}  // namespace

AccountAdministration::AccountAdministration(const AuthRecords& records,
                                             Authenticator& authenticator, ApiKeyService& keys,
                                             MailNotifier* mail)
    : records_(records), authenticator_(authenticator), keys_(keys), mail_(mail) {}

void AccountAdministration::RequireInstanceAdmin(const Principal& principal) const {
  if (!principal.via_session) {
    throw DomainError(errc::kScopeInsufficient,
                      "Instance administration needs the admin scope, which no API key holds: "
                      "sign in as a super admin.",
                      {{"required", "admin"}, {"granted", ToString(principal.scope)}});
  }
  if (!principal.super_admin) {
    throw DomainError(
        errc::kRoleRequired, "Instance administration is a super admin's.",
        {{"required", "super_admin"},
         {"held", principal.membership ? Json(FlagsName(*principal.membership)) : Json(nullptr)}});
  }
}

std::string AccountAdministration::NewOneTimePassword() { return Base64Url(RandomBytes(18)); }

User AccountAdministration::CreateUser(const std::string& email, const std::string& display_name,
                                       const std::string& password, bool super_admin,
                                       const std::string& actor_user_id, bool one_time) {
  const std::string normalized = NormalizeEmail(email);
  if (!IsValidEmail(normalized)) {
    throw DomainError(errc::kUserEmailInvalid, "the email address is not valid",
                      {{"field", "email"}});
  }
  RequireStrongPassword(password);
  auto duplicate = [&] {
    return DomainError(errc::kUserDuplicateEmail, "a user with this email already exists",
                       {{"email", normalized}});
  };
  if (records_.users().FindUserByEmail(normalized)) throw duplicate();
  User user{NewUuid(),
            normalized,
            display_name.empty() ? normalized : display_name,
            records_.hasher().HashSecret(password),
            true,
            super_admin,
            records_.Now()};
  user.must_change_password = one_time;
  try {
    records_.users().InsertUser(user);
  } catch (const DuplicateKeyError&) {
    throw duplicate();
  }
  records_.Audit("auth.user.created", user.id, "", "", "",
                 WithActor({{"email", user.email}, {"super_admin", super_admin}}, actor_user_id));
  return WithoutSecret(std::move(user));
}

void AccountAdministration::SetUserActive(const std::string& email, bool active,
                                          const std::string& actor_user_id) {
  User user = records_.RequireUser(email);
  records_.users().SetUserActive(user.id, active);
  authenticator_.ForgetUser(user.id);
  records_.Audit(active ? "auth.user.activated" : "auth.user.deactivated", user.id, "", "", "",
                 WithActor({{"email", user.email}}, actor_user_id));
}

std::string AccountAdministration::SetPassword(const std::string& email,
                                               const std::string& password) {
  User user = records_.RequireUser(email);
  std::string chosen = password.empty() ? NewOneTimePassword() : password;
  RequireStrongPassword(chosen);
  ReplacePassword(user, chosen, /*one_time=*/password.empty());
  records_.Audit("auth.password.reset", user.id, "", "", "",
                 {{"email", user.email}, {"one_time", password.empty()}});
  return password.empty() ? chosen : "";
}

void AccountAdministration::ReplacePassword(const User& user, const std::string& password,
                                            bool one_time) {
  records_.users().SetUserPasswordHash(
      user.id, password.empty() ? "" : records_.hasher().HashSecret(password), one_time);
  authenticator_.Unlock(user.email);
  // Whoever held the old password (a stolen cookie included) is signed out; API keys stay (a
  // key is revoked, never implicitly).
  records_.credentials().DeleteOtherSessionsOfUser(user.id, "");
  authenticator_.ForgetUser(user.id);
}

void AccountAdministration::ChangeOwnPassword(const Principal& principal,
                                              const std::string& current_password,
                                              const std::string& new_password,
                                              std::string_view source_ip) {
  if (!principal.via_session) {
    throw DomainError(errc::kSessionRequired,
                      "Changing a password mints an interactive credential: sign in; an API key "
                      "cannot do it.");
  }
  auto user = records_.users().FindUserById(principal.user_id);
  if (!user) throw DomainError(errc::kSessionInvalid, "Sign in again.");
  if (user->password_hash.empty()) {
    throw DomainError(errc::kUserNoLocalPassword,
                      "This account signs in through an identity provider and has no password "
                      "here to change.");
  }
  authenticator_.VerifyOwnPassword(*user, current_password, source_ip);
  RequireStrongPassword(new_password);
  records_.users().SetUserPasswordHash(user->id, records_.hasher().HashSecret(new_password), false);
  // Every OTHER session ends (a stolen cookie dies with the old password); this one stays, and
  // API keys are untouched (auth.md: a key is revoked, never implicitly). ForgetUser drops the
  // cached sessions, so this instance refuses the ended ones at once.
  const int64_t ended =
      records_.credentials().DeleteOtherSessionsOfUser(user->id, principal.session_token_hash);
  authenticator_.ForgetUser(user->id);
  records_.Audit("auth.password.changed", user->id, principal.key_id, "", source_ip,
                 Json{{"forced", user->must_change_password}, {"other_sessions_ended", ended}});
}

bool AccountAdministration::HasLocalPassword(const std::string& user_id) {
  auto user = records_.users().FindUserById(user_id);
  return user && !user->password_hash.empty();
}

CreatedLocalUser AccountAdministration::CreateLocalUser(const Principal& actor,
                                                        const std::string& email,
                                                        const std::string& display_name,
                                                        const std::string& workspace) {
  RequireSignedInAdmin(actor, "Creating a user");
  std::string password = NewOneTimePassword();
  User user = CreateUser(email, display_name, password, false, actor.user_id, /*one_time=*/true);
  MaterializeInvitations(records_, user);
  TellOperators(user, actor.email, workspace);
  MailOutcome mail = mail_ ? mail_->SendWelcome(user, password) : MailOutcome{};
  return {std::move(user), Handed(std::move(password), std::move(mail))};
}

OneTimeCredential AccountAdministration::ResetPassword(const Principal& actor,
                                                       const std::string& email) {
  RequireSignedInAdmin(actor, "Resetting a password");
  User user = records_.RequireUser(email);
  std::string password = NewOneTimePassword();
  ReplacePassword(user, password, /*one_time=*/true);
  const std::string reset_id = NewUuid();
  records_.Audit("auth.password.reset", user.id, "", "", "",
                 {{"email", user.email}, {"by_user_id", actor.user_id}, {"reset_id", reset_id}});
  MailOutcome mail = mail_ ? mail_->SendPasswordReset(user, password, reset_id) : MailOutcome{};
  return Handed(std::move(password), std::move(mail));
}

void AccountAdministration::DisableLocalPassword(const Principal& actor, const std::string& email) {
  RequireSignedInAdmin(actor, "Disabling a password");
  User user = records_.RequireUser(email);
  if (user.password_hash.empty()) {
    throw DomainError(errc::kUserNoLocalPassword, "This account has no password to disable.",
                      Json{{"email", user.email}});
  }
  ReplacePassword(user, "", /*one_time=*/false);
  records_.Audit("auth.password.disabled", user.id, "", "", "",
                 {{"email", user.email}, {"by_user_id", actor.user_id}});
}

void AccountAdministration::Unlock(const Principal& actor, const std::string& email) {
  RequireSignedInAdmin(actor, "Unlocking an account");
  User user = records_.RequireUser(email);
  authenticator_.Unlock(user.email);
  records_.Audit("auth.user.unlocked", user.id, "", "", "",
                 {{"email", user.email}, {"by_user_id", actor.user_id}});
}

int64_t AccountAdministration::LockedForMs(const std::string& email) {
  return authenticator_.LockedForMs(email);
}

void AccountAdministration::TellOperators(const User& user, const std::string& created_by,
                                          const std::string& workspace) {
  if (!mail_) return;
  mail_->SendNewUser(NewUserNotice{user.id, user.email, user.display_name, user.provider,
                                   created_by, workspace, user.created_at_ms});
}

Workspace AccountAdministration::CreateWorkspace(const std::string& name,
                                                 const std::string& display_name,
                                                 const std::string& created_by_email,
                                                 bool creator_joins) {
  if (!IsValidWorkspaceName(name)) {
    throw DomainError(errc::kWorkspaceNameInvalid,
                      "workspace names are 1 to 63 characters of [a-z0-9_-]", {{"name", name}});
  }
  std::string created_by;
  if (!created_by_email.empty()) created_by = records_.RequireUser(created_by_email).id;
  auto duplicate = [&] {
    return DomainError(errc::kWorkspaceDuplicateName, "a workspace with this name already exists",
                       {{"name", name}});
  };
  if (records_.workspaces().FindWorkspaceByName(name)) throw duplicate();
  Workspace workspace{NewUuid(), name, display_name.empty() ? name : display_name, created_by,
                      records_.Now()};
  try {
    records_.workspaces().InsertWorkspace(workspace);
  } catch (const DuplicateKeyError&) {
    throw duplicate();
  }
  records_.Audit("auth.workspace.created", created_by, "", workspace.id, "", {{"name", name}});
  // The creator owns it: a member with every flag, as `workspaces create --owner-email` says.
  if (!created_by_email.empty() && creator_joins) {
    SetMembership(workspace.name, created_by_email, MemberFlags{true, true, true});
  }
  return workspace;
}

void AccountAdministration::SetMembership(const std::string& workspace_name,
                                          const std::string& email, MemberFlags flags) {
  Workspace workspace = records_.RequireWorkspace(workspace_name);
  User user = records_.RequireUser(email);
  auto existing = records_.workspaces().FindMembership(workspace.id, user.id);
  if (existing && existing->flags.admin && !flags.admin) RequireAnotherAdmin(workspace);
  records_.workspaces().UpsertMembership(
      Membership{workspace.id, user.id, flags, existing ? existing->joined_at_ms : records_.Now()});
  // A demotion through this instance applies to its cached keys and sessions at once.
  authenticator_.ForgetUser(user.id);
  if (existing) {
    records_.Audit(
        "workspace.member_flags_changed", user.id, "", workspace.id, "",
        {{"email", user.email}, {"from", FlagsJson(existing->flags)}, {"to", FlagsJson(flags)}});
  } else {
    records_.Audit("workspace.member_added", user.id, "", workspace.id, "",
                   {{"email", user.email}, {"flags", FlagsJson(flags)}});
  }
}

bool AccountAdministration::RemoveMembership(const std::string& workspace_name,
                                             const std::string& email) {
  Workspace workspace = records_.RequireWorkspace(workspace_name);
  User user = records_.RequireUser(email);
  auto existing = records_.workspaces().FindMembership(workspace.id, user.id);
  if (!existing) return false;
  if (existing->flags.admin) RequireAnotherAdmin(workspace);
  if (!records_.workspaces().DeleteMembership(workspace.id, user.id)) return false;
  authenticator_.ForgetUser(user.id);
  records_.Audit("workspace.member_removed", user.id, "", workspace.id, "",
                 {{"email", user.email}});
  return true;
}

std::vector<User> AccountAdministration::ListUsers() {
  std::vector<User> users = records_.users().ListUsers();
  for (auto& user : users) user = WithoutSecret(std::move(user));
  return users;
}

std::vector<AccountSummary> AccountAdministration::ListAccounts() {
  std::vector<AccountSummary> accounts;
  for (User& user : records_.users().ListUsers()) {
    const bool local_password = !user.password_hash.empty();
    const bool locked = local_password && authenticator_.LockedForMs(user.email) > 0;
    accounts.push_back({WithoutSecret(std::move(user)), local_password, locked});
  }
  return accounts;
}

std::vector<Workspace> AccountAdministration::ListWorkspaces() {
  return records_.workspaces().ListWorkspaces();
}

std::vector<MemberInfo> AccountAdministration::ListMembers(const std::string& workspace_name) {
  Workspace workspace = records_.RequireWorkspace(workspace_name);
  std::vector<MemberInfo> members;
  for (const Membership& m : records_.workspaces().ListMembers(workspace.id)) {
    auto user = records_.users().FindUserById(m.user_id);
    members.push_back(MemberInfo{m.user_id, user ? user->email : "", user ? user->display_name : "",
                                 m.flags.Normalized(), m.joined_at_ms});
  }
  return members;
}

BootstrapResult AccountAdministration::Bootstrap(const BootstrapRequest& given) {
  BootstrapRequest request = given;
  if (request.workspace_name.empty()) request.workspace_name = "default";
  if (request.key_name.empty()) request.key_name = "bootstrap";
  BootstrapResult result;
  const std::string email = NormalizeEmail(request.admin_email);
  auto user = records_.users().FindUserByEmail(email);
  if (!user) {
    std::string password = request.admin_password;
    if (password.empty()) password = result.generated_password = NewOneTimePassword();
    // A generated password is one-time: the first sign-in replaces it.
    user = CreateUser(email, "Administrator", password, true, "",
                      /*one_time=*/!result.generated_password.empty());
    result.created_user = true;
  }
  result.user_id = user->id;
  auto workspace = records_.workspaces().FindWorkspaceByName(request.workspace_name);
  if (!workspace) {
    workspace = CreateWorkspace(request.workspace_name, request.workspace_name, email);
    result.created_workspace = true;
    result.created_membership = true;  // the creator is its ws_admin
  }
  result.workspace_id = workspace->id;
  if (!records_.workspaces().FindMembership(workspace->id, user->id)) {
    SetMembership(workspace->name, email, MemberFlags{true, true, true});
    result.created_membership = true;
  }
  if (!HasLiveAuthorKey(*user, *workspace)) {
    result.key =
        keys_.IssueOperatorKey(*user, *workspace,
                               CreateApiKeyRequest{request.key_name, Scope::kAuthor, KeyKind::kUser,
                                                   workspace->name, std::nullopt});
    result.created_key = true;
  }
  records_.Audit("auth.bootstrap", user->id, result.key ? result.key->record.id : "", workspace->id,
                 "",
                 {{"created_user", result.created_user},
                  {"created_workspace", result.created_workspace},
                  {"created_membership", result.created_membership},
                  {"created_key", result.created_key}});
  return result;
}

void AccountAdministration::RequireAnotherAdmin(const Workspace& workspace) const {
  // A workspace nobody administers is unmanageable: give someone else the admin flag first.
  if (records_.workspaces().CountAdmins(workspace.id) <= 1) {
    throw DomainError(errc::kWorkspaceLastAdmin,
                      "This is the last admin of workspace '" + workspace.name +
                          "': give someone else the admin flag first.",
                      Json{{"workspace", workspace.name}});
  }
}

bool AccountAdministration::HasLiveAuthorKey(const User& user, const Workspace& workspace) const {
  const int64_t now = records_.Now();
  auto keys = records_.credentials().ListApiKeysOfUser(user.id);
  return std::any_of(keys.begin(), keys.end(), [&](const ApiKeyRecord& key) {
    return key.workspace_id == workspace.id && !key.is_revoked && key.kind == KeyKind::kUser &&
           key.scope == Scope::kAuthor && !IsExpired(key.expires_at_ms, now);
  });
}

}  // namespace dp
