// Admin (ui-screens §4.12, §4.13): the members of the active workspace and their capability
// flags (add, change the flags, remove — workspace admins), and for instance admins the users
// (create a local account with a one-time password, activate, deactivate) and workspaces (create).
// Each verb is a WorkspaceAdminService call, which holds the checks.
#include "datapipelines/service/identity/workspace_admin_service.hpp"
#include "ui/ui_context.hpp"

namespace dp::ui {
namespace {

// The members of the active workspace. A super admin with no workspace yet (the seeded first
// admin of a fresh server) still reaches the instance half of the page.
Json MembersOf(UiContext& ctx) {
  if (ctx.principal.workspace_id.empty() && ctx.can.super_admin) return Json::array();
  return ctx.s.admin.Members(ctx.principal);
}

HttpResponse Page(UiContext& ctx, Json extra = Json::object()) {
  Json members = MembersOf(ctx);
  AddHrefs(members, "/ui/admin/members", "email");
  for (Json& member : members) {
    member["flags_name"] = FlagsName({member["author"].get<bool>(), member["promoter"].get<bool>(),
                                      member["admin"].get<bool>()});
  }
  Json model{{"members", members}, {"has_workspace", !ctx.principal.workspace_id.empty()}};
  if (ctx.can.admin_workspace && !ctx.principal.workspace_id.empty()) {
    model["invitations"] = ctx.s.admin.Invitations(ctx.principal);
  }
  if (ctx.can.super_admin) {
    Json users = ctx.s.admin.Users(ctx.principal);
    AddHrefs(users, "/ui/admin/users", "email");
    model["users"] = std::move(users);
    model["workspaces"] = ctx.s.admin.Workspaces(ctx.principal);
  }
  model.update(extra);
  return ctx.Page("admin", std::move(model), "admin");
}

// Each flag is a checkbox: present means held; none is a viewer.
MemberFlags FlagsFromForm(const UiContext& ctx) {
  return MemberFlags{ctx.Form("author").has_value(), ctx.Form("promoter").has_value(),
                     ctx.Form("admin").has_value()};
}

// The one-time password is rendered into this response only: never a redirect, never a URL.
// What the admin is told of a one-time password: the password itself only when the mail did
// not carry it, and what became of the mail.
Json CredentialNotice(const std::string& email, const OneTimeCredential& credential) {
  Json notice{{"email", email}, {"mail", credential.mail.StatusName()}};
  if (!credential.password.empty()) notice["password"] = credential.password;
  if (!credential.mail.reason.empty()) notice["mail_reason"] = credential.mail.reason;
  return notice;
}

HttpResponse CreateUser(UiContext& ctx) {
  CreatedUser created = ctx.s.admin.CreateUser(
      ctx.principal, NewUserRequest{ctx.FormOr("email"), ctx.FormOr("display_name"),
                                    ctx.FormOr("workspace"), FlagsFromForm(ctx)});
  Json notice = CredentialNotice(created.user["email"].get<std::string>(), created.credential);
  if (!ctx.FormOr("workspace").empty()) notice["workspace"] = ctx.FormOr("workspace");
  if (created.membership_refusal) {
    notice["membership_refusal"] = created.membership_refusal->ToJson();
    notice.erase("workspace");
  }
  return Page(ctx, Json{{"created_user", std::move(notice)}});
}

std::optional<HttpResponse> AdminVerb(UiContext& ctx, const std::vector<std::string>& s) {
  if (s[1] == "members" && s.size() == 2 && ctx.Form("add")) {
    const bool invited =
        ctx.s.admin.AddMember(ctx.principal, ctx.FormOr("email"), FlagsFromForm(ctx));
    return UiContext::Redirect("/ui/admin", invited ? "invited" : "saved");
  }
  if (s[1] == "members" && s.size() == 2) {
    ctx.s.admin.SetMember(ctx.principal, ctx.FormOr("email"), FlagsFromForm(ctx));
    return UiContext::Redirect("/ui/admin", "saved");
  }
  if (s[1] == "members" && s.size() == 4 && s[3] == "remove") {
    ctx.s.admin.RemoveMember(ctx.principal, s[2]);
    return UiContext::Redirect("/ui/admin", "removed");
  }
  if (s[1] == "users" && s.size() == 2) return CreateUser(ctx);
  if (s[1] == "users" && s.size() == 4 && (s[3] == "activate" || s[3] == "deactivate")) {
    const bool active = s[3] == "activate";
    ctx.s.admin.SetUserActive(ctx.principal, s[2], active);
    return UiContext::Redirect("/ui/admin", active ? "user_activated" : "user_deactivated");
  }
  if (s[1] == "users" && s.size() == 4 && s[3] == "reset-password") {
    OneTimeCredential reset = ctx.s.admin.ResetPassword(ctx.principal, s[2]);
    return Page(ctx, Json{{"reset_user", CredentialNotice(s[2], reset)}});
  }
  if (s[1] == "users" && s.size() == 4 && s[3] == "disable-local") {
    ctx.s.admin.DisableLocalPassword(ctx.principal, s[2]);
    return UiContext::Redirect("/ui/admin", "local_disabled");
  }
  if (s[1] == "users" && s.size() == 4 && s[3] == "unlock") {
    ctx.s.admin.Unlock(ctx.principal, s[2]);
    return UiContext::Redirect("/ui/admin", "user_unlocked");
  }
  if (s[1] == "workspaces" && s.size() == 2) {
    ctx.s.admin.CreateWorkspace(ctx.principal, ctx.FormOr("name"), ctx.FormOr("display_name"));
    return UiContext::Redirect("/ui/admin", "workspace_created");
  }
  return std::nullopt;
}

}  // namespace

std::optional<HttpResponse> AdminScreens(UiContext& ctx, const std::vector<std::string>& s) {
  if (s.empty() || s[0] != "admin") return std::nullopt;
  if (s.size() == 1 && !ctx.IsPost()) return Page(ctx);
  if (!ctx.IsPost() || s.size() < 2) return std::nullopt;
  try {
    return AdminVerb(ctx, s);
  } catch (const DomainError& refusal) {
    ctx.refusal = refusal;
    return Page(ctx);
  }
}

}  // namespace dp::ui
