// User settings (ui-screens §4.11): who you are, your workspace and role, what you may do here.
// The password change is not in this build (the operator CLI sets passwords).
#include "ui/ui_context.hpp"

namespace dp::ui {

std::optional<HttpResponse> AccountScreens(UiContext& ctx, const std::vector<std::string>& s) {
  if (s.size() != 1 || s[0] != "settings" || ctx.IsPost()) return std::nullopt;
  return ctx.Page("settings", Json::object(), "settings");
}

}  // namespace dp::ui
