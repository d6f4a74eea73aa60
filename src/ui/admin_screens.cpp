// Admin (ui-screens §4.12, §4.13): the members and roles of the active workspace (add, change a
// role, remove — workspace admins), and for instance admins the users and workspaces. Each verb is
// a WorkspaceAdminService call, which holds the checks.
#include "datapipelines/service/workspace_admin_service.hpp"
#include "ui/ui_context.hpp"

namespace dp::ui {
namespace {

HttpResponse Page(UiContext& ctx) {
  Json members = ctx.s.admin.Members(ctx.principal);
  AddHrefs(members, "/ui/admin/members", "email");
  Json model{{"members", members}, {"roles", {"viewer", "operator", "author", "ws_admin"}}};
  if (ctx.can.super_admin) {
    model["users"] = ctx.s.admin.Users(ctx.principal);
    model["workspaces"] = ctx.s.admin.Workspaces(ctx.principal);
  }
  return ctx.Page("admin", std::move(model), "admin");
}

Role RoleFromForm(const UiContext& ctx) {
  auto role = ParseRole(ctx.FormOr("role"));
  if (!role) {
    throw DomainError(errc::kRequestInvalid, "'role' must be viewer, operator, author or ws_admin.",
                      Json{{"field", "role"}});
  }
  return *role;
}

}  // namespace

std::optional<HttpResponse> AdminScreens(UiContext& ctx, const std::vector<std::string>& s) {
  if (s.empty() || s[0] != "admin") return std::nullopt;
  if (s.size() == 1 && !ctx.IsPost()) return Page(ctx);
  if (!ctx.IsPost() || s.size() < 2 || s[1] != "members") return std::nullopt;
  try {
    if (s.size() == 2) {
      ctx.s.admin.SetMember(ctx.principal, ctx.FormOr("email"), RoleFromForm(ctx));
      return UiContext::Redirect("/ui/admin", "saved");
    }
    if (s.size() == 4 && s[3] == "remove") {
      ctx.s.admin.RemoveMember(ctx.principal, s[2]);
      return UiContext::Redirect("/ui/admin", "removed");
    }
  } catch (const DomainError& refusal) {
    ctx.refusal = refusal;
    return Page(ctx);
  }
  return std::nullopt;
}

}  // namespace dp::ui
