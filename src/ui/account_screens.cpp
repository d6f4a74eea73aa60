// User settings (ui-screens §4.11, §4.14): who you are, your workspace and role, what you may do
// here, and the password change (AccountService::ChangePassword holds the rules).
#include "datapipelines/service/identity/account_service.hpp"
#include "ui/ui_context.hpp"

namespace dp::ui {

std::optional<HttpResponse> AccountScreens(UiContext& ctx, const std::vector<std::string>& s) {
  if (s.empty() || s[0] != "settings") return std::nullopt;
  if (s.size() == 1 && !ctx.IsPost()) return ctx.Page("settings", Json::object(), "settings");
  if (s.size() == 2 && s[1] == "password" && ctx.IsPost()) {
    try {
      if (ctx.FormOr("new_password") != ctx.FormOr("confirm_password")) {
        throw DomainError(errc::kRequestInvalid, "The two new passwords differ.",
                          Json{{"field", "confirm_password"}});
      }
      ctx.s.account.ChangePassword(ctx.principal, ctx.FormOr("current_password"),
                                   ctx.FormOr("new_password"));
      return UiContext::Redirect("/ui/settings", "password_changed");
    } catch (const DomainError& refusal) {
      ctx.refusal = refusal;
      return ctx.Page("settings", Json::object(), "settings");
    }
  }
  return std::nullopt;
}

}  // namespace dp::ui
