#pragma once
// What one UI request carries through a screen handler: the HTTP request, the session
// principal, its CSRF token, the capability flags, and the page renderer. Internal to src/ui/.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/net/http_message.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/ui/page_renderer.hpp"
#include "datapipelines/ui/ui_app.hpp"
#include "datapipelines/util/json.hpp"

namespace dp::ui {

// Which verbs to render (ui-screens §4.3e: hide, don't disable). Each flag is the access check
// the service itself runs for that verb, asked of the same operation table; the service still
// re-checks every POST, so a flag only decides what is drawn.
struct Capabilities {
  bool author = false;           // pipeline/template edit, discard, delete; key issuance
  bool release = false;          // pipeline/template release (the promoter's verb)
  bool execute = false;          // run, cancel
  bool admin_workspace = false;  // datasource register, edit, test
  bool super_admin = false;      // datasource grants, SQLite datasources
  static Capabilities Of(const Principal& principal);
  Json ToJson() const;
};

class UiContext {
 public:
  UiContext(const HttpRequest& http, UiServices& services, const PageRenderer& pages,
            Principal principal, std::string csrf)
      : http(http),
        s(services),
        pages(pages),
        principal(std::move(principal)),
        csrf(std::move(csrf)),
        can(Capabilities::Of(this->principal)) {}

  const HttpRequest& http;
  UiServices& s;
  const PageRenderer& pages;
  Principal principal;
  std::string csrf;
  Capabilities can;
  // Set when a POST was refused: the page it came back to shows it (ui-screens §5.1 error).
  std::optional<DomainError> refusal;

  bool IsPost() const { return http.method == "POST"; }
  // A field of the urlencoded form body (POST) — percent-decoded, '+' as space.
  std::optional<std::string> Form(std::string_view name) const;
  std::string FormOr(std::string_view name, std::string fallback = "") const;
  std::optional<std::string> Query(std::string_view name) const;
  std::string QueryOr(std::string_view name, std::string fallback = "") const;

  // A full page: `page`.ftl with the shell's model (me, csrf, can, nav, flash, refusal).
  HttpResponse Page(const std::string& page, Json model, const std::string& section,
                    int status = 200) const;
  // 303 See Other to `location` (post/redirect/get), with ?ok=<key> when given.
  static HttpResponse Redirect(const std::string& location, const std::string& ok = "");
};

// A screen family: answers the path segments below /ui/ it owns, nullopt otherwise.
using Screen =
    std::function<std::optional<HttpResponse>(UiContext&, const std::vector<std::string>&)>;

std::optional<HttpResponse> DashboardScreen(UiContext& ctx, const std::vector<std::string>& s);
std::optional<HttpResponse> PipelineScreens(UiContext& ctx, const std::vector<std::string>& s);
std::optional<HttpResponse> TemplateScreens(UiContext& ctx, const std::vector<std::string>& s);
std::optional<HttpResponse> DatasourceScreens(UiContext& ctx, const std::vector<std::string>& s);
std::optional<HttpResponse> ExecutionScreens(UiContext& ctx, const std::vector<std::string>& s);
std::optional<HttpResponse> KeyScreens(UiContext& ctx, const std::vector<std::string>& s);
std::optional<HttpResponse> AccountScreens(UiContext& ctx, const std::vector<std::string>& s);
std::optional<HttpResponse> AdminScreens(UiContext& ctx, const std::vector<std::string>& s);
// Before every screen: a destructive verb's POST without confirmed=yes (JavaScript off) is sent
// to its GET confirmation page, which this step renders (confirm_step.cpp).
std::optional<HttpResponse> ConfirmStep(UiContext& ctx, const std::vector<std::string>& s);

// `text` as a whole decimal int; request.validation.invalid naming `field` otherwise.
int ParseInt(const std::string& text, const std::string& field);
// The path below /ui split on '/', each segment percent-decoded; nullopt when not below /ui.
std::optional<std::vector<std::string>> SegmentsBelowUi(std::string_view path);

// Sets item["href"] = base + "/" + percent-encoded item[key] on every object of `items` (the
// engine has no ?url: links are built here).
void AddHrefs(Json& items, std::string_view base, const char* key);
// One path segment percent-encoded (RFC 3986 unreserved characters kept).
std::string EncodeSegment(std::string_view text);

// "/ui/pipelines/<id>" with each segment percent-encoded.
std::string UiPath(std::initializer_list<std::string_view> segments);

}  // namespace dp::ui
