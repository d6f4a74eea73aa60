#include "ui/ui_context.hpp"

#include <charconv>
#include <cstdio>

#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/ui/ui_app.hpp"
#include "datapipelines/util/percent_encoding.hpp"
#include "datapipelines/util/utf8.hpp"

namespace dp::ui {

std::string EncodeSegment(std::string_view text) { return PercentEncode(text); }

void AddHrefs(Json& items, std::string_view base, const char* key) {
  if (!items.is_array()) return;
  for (Json& item : items) {
    if (item.is_object() && item.contains(key) && item[key].is_string()) {
      item["href"] = std::string(base) + "/" + EncodeSegment(item[key].get<std::string>());
    }
  }
}

Capabilities Capabilities::Of(const Principal& principal) {
  Capabilities can;
  // The rows the services check for the verbs each flag shows: authoring (discard, delete,
  // keys), releasing, executing (and cancelling), registering a datasource (and its admin
  // verbs).
  can.author = IsAllowed(principal, Operation::kPipelinesCreate);
  can.release = IsAllowed(principal, Operation::kPipelinesRelease);
  can.execute = IsAllowed(principal, Operation::kPipelinesExecute);
  can.admin_workspace = IsAllowed(principal, Operation::kDatasourcesCreate);
  can.super_admin = principal.super_admin;
  return can;
}

Json Capabilities::ToJson() const {
  return Json{{"author", author},
              {"release", release},
              {"execute", execute},
              {"admin_workspace", admin_workspace},
              {"super_admin", super_admin}};
}

std::optional<std::string> UiContext::Form(std::string_view name) const {
  return QueryParam(http.body, name);
}

std::string UiContext::FormOr(std::string_view name, std::string fallback) const {
  return Form(name).value_or(std::move(fallback));
}

std::optional<std::string> UiContext::Query(std::string_view name) const {
  return QueryParam(http.query, name);
}

std::string UiContext::QueryOr(std::string_view name, std::string fallback) const {
  auto value = Query(name);
  return value && !value->empty() ? *value : std::move(fallback);
}

HttpResponse UiContext::Page(const std::string& page, Json model, const std::string& section,
                             int status) const {
  model["me"] = {
      {"email", principal.email},
      {"display_name", principal.display_name.empty() ? principal.email : principal.display_name},
      {"workspace", principal.workspace_name},
      {"role", principal.membership ? Json(FlagsName(*principal.membership)) : Json()},
      {"super_admin", principal.super_admin}};
  model["csrf"] = csrf;
  model["can"] = can.ToJson();
  model["section"] = section;
  model["correlation_id"] = http.correlation_id;
  model["path"] = http.path;
  if (auto ok = Query("ok"); ok && !ok->empty()) model["flash_ok"] = *ok;
  if (refusal) {
    Json error = refusal->ToJson();
    error["correlation_id"] = http.correlation_id;
    model["refusal"] = std::move(error);
    if (status == 200) status = refusal->http_status();
  }
  HttpResponse response;
  response.status = status;
  response.content_type = "text/html; charset=utf-8";
  response.body = pages.Render(page, model);
  // A page answering a POST (a refusal, a test result) keeps the address bar on the page the
  // form sits on: a boosted POST's URL is not a page to reload.
  if (IsPost()) response.SetHeader("HX-Push-Url", "false");
  return response;
}

HttpResponse UiContext::Redirect(const std::string& location, const std::string& ok) {
  HttpResponse response;
  response.status = 303;
  response.content_type.clear();
  std::string target = location;
  if (!ok.empty()) target += (target.find('?') == std::string::npos ? "?ok=" : "&ok=") + ok;
  response.SetHeader("Location", target);
  return response;
}

int ParseInt(const std::string& text, const std::string& field) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw DomainError(errc::kRequestInvalid, "'" + field + "' must be an integer.",
                      Json{{"field", field}});
  }
  return value;
}

std::optional<std::vector<std::string>> SegmentsBelowUi(std::string_view path) {
  constexpr std::string_view kPrefix = "/ui";
  if (path.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::string_view rest = path.substr(kPrefix.size());
  if (!rest.empty() && rest.front() != '/') return std::nullopt;
  std::vector<std::string> segments;
  while (!rest.empty()) {
    rest.remove_prefix(1);
    size_t slash = rest.find('/');
    auto decoded = PercentDecode(rest.substr(0, slash));
    if (!decoded || !IsValidUtf8(*decoded) || decoded->find('\0') != std::string::npos) {
      throw DomainError(errc::kRequestInvalid, "A path segment is malformed.");
    }
    segments.push_back(std::move(*decoded));
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  }
  return segments;
}

std::string UiPath(std::initializer_list<std::string_view> segments) {
  std::string path = "/ui";
  for (std::string_view s : segments) path += "/" + EncodeSegment(s);
  return path;
}

}  // namespace dp::ui
