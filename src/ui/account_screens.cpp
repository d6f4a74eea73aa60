// User settings (ui-screens §4.11, §4.14): who you are, your workspace and flags, what you may do
// here, and the password change (AccountService::ChangePassword holds the rules). A session held
// at the forced change (auth.md §5A.4) sees the change alone, on the ceremony layout: every
// other page would only send it back here.
#include "datapipelines/service/identity/account_service.hpp"
#include "ui/ui_context.hpp"

namespace dp::ui {
namespace {

HttpResponse PasswordPage(UiContext& ctx) {
  Json model{{"has_local_password", ctx.s.account.HasLocalPassword(ctx.principal)}};
  // The ceremony layout for the held session: no shell whose every link would bounce back.
  if (ctx.principal.password_change_required) {
    return ctx.Page("password_forced", std::move(model), "settings");
  }
  return ctx.Page("settings", std::move(model), "settings");
}

HttpResponse ChangePassword(UiContext& ctx) {
  try {
    if (ctx.FormOr("new_password") != ctx.FormOr("confirm_password")) {
      throw DomainError(errc::kRequestInvalid, "The two new passwords differ.",
                        Json{{"field", "confirm_password"}});
    }
    ctx.s.account.ChangePassword(ctx.principal, ctx.FormOr("current_password"),
                                 ctx.FormOr("new_password"), ctx.http.remote_ip);
    // The forced change is over: on to the product, rather than back to the form.
    return UiContext::Redirect(ctx.principal.password_change_required ? "/ui/" : "/ui/settings",
                               "password_changed");
  } catch (const DomainError& refusal) {
    ctx.refusal = refusal;
    return PasswordPage(ctx);
  }
}

}  // namespace

std::optional<HttpResponse> AccountScreens(UiContext& ctx, const std::vector<std::string>& s) {
  if (s.empty() || s[0] != "settings") return std::nullopt;
  if (s.size() == 1 && !ctx.IsPost()) {
    return ctx.Page("settings",
                    Json{{"has_local_password", ctx.s.account.HasLocalPassword(ctx.principal)}},
                    "settings");
  }
  if (s.size() == 2 && s[1] == "password") {
    return ctx.IsPost() ? ChangePassword(ctx) : PasswordPage(ctx);
  }
  return std::nullopt;
}

}  // namespace dp::ui
