// The confirmation of a destructive verb (issue 17: release, discard, delete, revoke, remove).
// With JavaScript on, htmx asks (the form's hx-confirm) and sends confirmed=yes (hx-vals), so
// the POST goes straight to its screen. A plain form post, JavaScript off, carries no
// confirmed field: it is redirected to GET of the same path, which renders "Are you sure…"
// with a POST form of its own (the CSRF token, confirmed=yes, the original fields). The step
// decides nothing about the verb itself: the screen's service call still checks everything.
#include <algorithm>
#include <array>
#include <string_view>

#include "datapipelines/util/percent_encoding.hpp"
#include "ui/ui_context.hpp"

namespace dp::ui {
namespace {

constexpr std::array<std::string_view, 6> kDestructive = {"release", "discard", "purge-draft",
                                                          "delete",  "revoke",  "remove"};

// The verb as the confirm button says it.
std::string VerbLabel(std::string_view verb) {
  if (verb == "purge-draft") return "discard the draft";
  return std::string(verb);
}

// name=value pairs of an urlencoded string, decoded ('+' is a space); undecodable pairs drop.
std::vector<std::pair<std::string, std::string>> Pairs(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  while (!text.empty()) {
    size_t amp = text.find('&');
    std::string_view pair = text.substr(0, amp);
    text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    size_t eq = pair.find('=');
    std::string name(pair.substr(0, eq));
    std::string value(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
    std::replace(name.begin(), name.end(), '+', ' ');
    std::replace(value.begin(), value.end(), '+', ' ');
    auto n = PercentDecode(name);
    auto v = PercentDecode(value);
    if (n && v && !n->empty()) out.emplace_back(std::move(*n), std::move(*v));
  }
  return out;
}

// Where "No, go back" leads: the object's own page, or the list page for keys and members.
std::string BackOf(const std::vector<std::string>& s) {
  if (s[0] == "keys" || s[0] == "admin") return "/ui/" + s[0];
  return UiPath({s[0], s[1]});
}

}  // namespace

std::optional<HttpResponse> ConfirmStep(UiContext& ctx, const std::vector<std::string>& s) {
  if (s.size() < 3 ||
      std::find(kDestructive.begin(), kDestructive.end(), s.back()) == kDestructive.end()) {
    return std::nullopt;
  }
  if (ctx.IsPost()) {
    if (ctx.Form("confirmed") == std::optional<std::string>("yes")) return std::nullopt;
    // The form's fields travel in the query; the CSRF token never does (it is re-issued).
    std::string query;
    for (const auto& [name, value] : Pairs(ctx.http.body)) {
      if (name == "_csrf" || name == "confirmed") continue;
      query += (query.empty() ? "" : "&") + EncodeSegment(name) + "=" + EncodeSegment(value);
    }
    return UiContext::Redirect(ctx.http.path + (query.empty() ? "" : "?" + query));
  }
  if (ctx.http.method != "GET") return std::nullopt;
  Json fields = Json::array();
  std::string question;
  for (const auto& [name, value] : Pairs(ctx.http.query)) {
    if (name == "_csrf" || name == "confirmed") continue;
    if (name == "question") question = value;
    fields.push_back(Json{{"name", name}, {"value", value}});
  }
  if (question.empty())
    question = "This will " + VerbLabel(s.back()) + " " + s[0] + " / " + s[1] + ".";
  Json model{{"action", ctx.http.path},
             {"question", question},
             {"verb", VerbLabel(s.back())},
             {"fields", std::move(fields)},
             {"back", BackOf(s)}};
  return ctx.Page("confirm", std::move(model), s[0] == "keys" ? "keys" : s[0]);
}

}  // namespace dp::ui
