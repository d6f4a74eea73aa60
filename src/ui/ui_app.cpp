#include "datapipelines/ui/ui_app.hpp"

#include <spdlog/spdlog.h>

#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/service/audit/access_audit.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/service/identity/forced_password_change.hpp"
#include "datapipelines/service/identity/oidc/oidc_sign_in.hpp"
#include "datapipelines/service/identity/request_authenticator.hpp"
#include "datapipelines/ui/page_renderer.hpp"
#include "datapipelines/ui/ui_assets.hpp"
#include "ui/ui_context.hpp"

namespace dp {
namespace {

constexpr std::string_view kUiPrefix = "/ui";
constexpr std::string_view kStaticPrefix = "/ui/static/";

HttpResponse Html(int status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.content_type = "text/html; charset=utf-8";
  response.body = std::move(body);
  return response;
}

// The model of a page rendered outside a session (login, the error pages before sign-in).
Json AnonymousModel(const HttpRequest& request) {
  return Json{{"correlation_id", request.correlation_id}, {"path", request.path}};
}

constexpr std::string_view kOidcBeginPrefix = "/oauth2/authorization/";
constexpr std::string_view kOidcCallbackPrefix = "/login/oauth2/code/";

// The page to land on after signing in: only a path of this UI — an open redirect would let a
// link send a fresh session elsewhere.
std::string NextPath(const HttpRequest& request) {
  std::string next = QueryParam(request.query, "next").value_or("/ui/");
  if (next.rfind("/ui/", 0) != 0 || next.find("//") != std::string::npos ||
      next.find('\\') != std::string::npos) {
    next = "/ui/";
  }
  return next;
}

// The sign-in page's banner for a refusal the OIDC callback sent back; null for an unknown code.
const char* SignInRefusalMessage(std::string_view code) {
  if (code == errc::kLoginOidcError.code) {
    return "Signing in through your identity provider did not succeed. Try again; if it keeps "
           "failing, ask an administrator.";
  }
  if (code == errc::kLoginDomainNotAllowed.code) {
    return "Your e-mail domain may not sign in to this deployment.";
  }
  if (code == errc::kLoginUserInactive.code) return "This account is deactivated.";
  return nullptr;
}

std::string ContentTypeFor(std::string_view path) {
  auto ends = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
  };
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

// Forms send _csrf; htmx requests may send DP-CSRF-Token (hx-headers on <body>).
bool CsrfPresented(const HttpRequest& request, const std::string& session) {
  std::optional<std::string> presented = QueryParam(request.body, "_csrf");
  if (!presented) {
    if (auto header = request.headers.Get("DP-CSRF-Token")) presented = std::string(*header);
  }
  return presented && Authenticator::CsrfTokenMatches(session, *presented);
}

// Origin (sent by browsers on every POST) must name this server's own Host; absent (a non-browser
// client) is left to the CSRF token.
bool SameOrigin(const HttpRequest& request) {
  auto origin = request.headers.Get("Origin");
  if (!origin) return true;
  auto host = request.headers.Get("Host");
  if (!host) return false;
  std::string_view o = *origin;
  size_t scheme = o.find("://");
  if (scheme == std::string_view::npos) return false;
  return o.substr(scheme + 3) == *host;
}

}  // namespace

void AddUiSecurityHeaders(HttpResponse& response) {
  response.SetHeader("Content-Security-Policy",
                     "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' "
                     "data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; "
                     "base-uri 'none'");
  response.SetHeader("X-Frame-Options", "DENY");
  response.SetHeader("Referrer-Policy", "same-origin");
  response.SetHeader("X-Content-Type-Options", "nosniff");
}

UiApp::UiApp(UiServices services, UiOptions options)
    : services_(services), options_(options), pages_(std::make_unique<PageRenderer>()) {}

UiApp::~UiApp() = default;

HttpResponse UiApp::HandleStatic(const HttpRequest& request) const {
  std::string_view name = std::string_view(request.path).substr(kStaticPrefix.size());
  const EmbeddedFile* found = nullptr;
  for (const auto& file : EmbeddedUiStatic()) {
    if (file.path == name) found = &file;
  }
  for (const auto& file : EmbeddedHtmx()) {
    if (file.path == name) found = &file;
  }
  HttpResponse response;
  if (!found) {
    response = Html(404, "not found");
  } else {
    response.content_type = ContentTypeFor(name);
    response.body = std::string(found->bytes);
    // URLs carry ?v=<server version>, so a new build is a new URL.
    response.SetHeader("Cache-Control", "public, max-age=31536000, immutable");
  }
  AddUiSecurityHeaders(response);
  return response;
}

HttpResponse UiApp::Handle(const HttpRequest& request) {
  HttpResponse response;
  try {
    response = Route(request);
  } catch (const DomainError& error) {
    Json model = AnonymousModel(request);
    model["error"] = error.ToJson();
    response = Html(error.http_status(), pages_->Render("error", model));
    // An outage's page says when to come back, as its REST answer does.
    if (auto retry = error.details().find("retry_after_seconds");
        error.details().is_object() && retry != error.details().end()) {
      response.SetHeader("Retry-After", retry->dump());
    }
  } catch (const std::exception& e) {
    spdlog::error("correlation_id={} ui: {}", request.correlation_id, e.what());
    Json model = AnonymousModel(request);
    model["error"] = {{"code", "internal.error"}, {"message", "Internal error."}};
    response = Html(500, pages_->Render("error", model));
  }
  response.SetHeader("Cache-Control", "no-store");
  AddUiSecurityHeaders(response);
  return response;
}

// A session held at the forced password change (auth.md §5A.4): a page load goes to the
// change page, an htmx request is told where to go (a redirect would swap a whole page into a
// fragment), and a form post is refused.
HttpResponse UiApp::ToPasswordChange(const HttpRequest& request) {
  const std::string page(kPasswordChangePage);
  if (request.headers.Get("HX-Request")) {
    HttpResponse response = Html(403, "");
    response.SetHeader("HX-Redirect", page);
    return response;
  }
  if (request.method == "GET") return ui::UiContext::Redirect(page);
  throw DomainError(errc::kPasswordChangeRequired,
                    "Your password is a one-time password: choose your own before anything else.",
                    Json{{"change_at", page}});
}

HttpResponse UiApp::Route(const HttpRequest& request) {
  const std::string& path = request.path;
  if (path == "/" || path == kUiPrefix) return ui::UiContext::Redirect("/ui/");
  // A browser names the page a POST came from: another origin's form is refused before anything
  // runs — the sign-in form included, which has no session to bind a token to yet.
  if (request.method == "POST" && !SameOrigin(request)) {
    throw DomainError(errc::kCsrfInvalid, "Cross-origin form posts are refused.",
                      Json{{"reason", "cross_origin"}});
  }
  if (path == "/ui/login") return Login(request);
  if (path.rfind(kOidcBeginPrefix, 0) == 0) return OidcBegin(request);
  if (path.rfind(kOidcCallbackPrefix, 0) == 0) return OidcCallback(request);
  auto session = CookieValue(request.headers, "dp_session");
  std::optional<Principal> principal;
  if (session && !session->empty()) {
    try {
      // Only the session cookie authenticates a page: an API key (an agent's credential)
      // never does.
      principal = services_.authenticator
                      .Authenticate(RequestCredentials::SessionOnly(request.headers),
                                    request.remote_ip, CredentialPolicy::kApiKeyOrSession, path)
                      .principal;
    } catch (const DomainError& refusal) {
      if (refusal.code() == errc::kPasswordChangeRequired) return ToPasswordChange(request);
      if (refusal.http_status() == 429) throw;
    }
  }
  if (!principal) {
    if (request.method != "GET") {
      throw DomainError(errc::kSessionInvalid, "Sign in to do that.");
    }
    std::string next = request.target.rfind("/ui/", 0) == 0 ? request.target : "/ui/";
    // A cookie that no longer opens a session (expired, signed out elsewhere, ended by a
    // password change) says so on the sign-in page (ui-screens §6, the 401 row).
    const bool expired = session && !session->empty();
    return ui::UiContext::Redirect("/ui/login?next=" + ui::UiPath({next}).substr(4) +
                                   (expired ? "&expired=true" : ""));
  }
  if (request.method == "POST" && !CsrfPresented(request, *session)) {
    throw DomainError(errc::kCsrfInvalid, "This form is stale or forged: reload the page.",
                      Json{{"reason", "missing_or_mismatch"}});
  }
  RecordSuperAdminActing(
      services_.auth.audit_log(), *principal,
      AccessTarget{"ui", request.method, path, request.correlation_id, request.remote_ip});
  ui::UiContext ctx(request, services_, *pages_, *principal, Authenticator::CsrfTokenFor(*session));
  if (path == "/ui/logout" && request.method == "POST") return Logout(request);
  auto segments = ui::SegmentsBelowUi(path);
  if (!segments) throw DomainError(errc::kRouteNotFound, "No page at " + path + ".");
  if (!segments->empty() && segments->back().empty()) segments->pop_back();  // "/ui/"
  static const ui::Screen kScreens[] = {
      ui::ConfirmStep,     ui::DashboardScreen,   ui::PipelineScreens,
      ui::TemplateScreens, ui::DatasourceScreens, ui::ExecutionScreens,
      ui::KeyScreens,      ui::AccountScreens,    ui::AdminScreens};
  for (const auto& screen : kScreens) {
    if (auto answer = screen(ctx, *segments)) return std::move(*answer);
  }
  throw DomainError(errc::kRouteNotFound, "No page at " + path + ".");
}

HttpResponse UiApp::Login(const HttpRequest& request) {
  const std::string next = NextPath(request);
  Json model = AnonymousModel(request);
  model["next"] = next;
  model["next_q"] = ui::EncodeSegment(next);
  model["providers"] = Json::array();
  model["local_enabled"] = services_.auth.authentication().local_accounts_enabled();
  if (services_.oidc) {
    for (const auto& provider : services_.oidc->Providers()) {
      model["providers"].push_back(
          {{"name", provider.name}, {"display_name", provider.display_name}});
    }
  }
  if (request.method == "GET") {
    if (auto session = CookieValue(request.headers, "dp_session"); session && !session->empty()) {
      try {
        services_.auth.authentication().AuthenticateSession(*session);
        return ui::UiContext::Redirect(next);  // signed in already (ui-screens §4.1)
      } catch (const DomainError&) {
      }
    }
    if (auto ok = QueryParam(request.query, "ok")) model["flash_ok"] = *ok;
    // A refused OIDC sign-in comes back here naming its catalogued code (auth.md §5.3).
    if (auto error = QueryParam(request.query, "error")) {
      if (const char* message = SignInRefusalMessage(*error)) {
        model["refusal"] = {{"code", *error}, {"message", message}};
      }
    }
    if (QueryParam(request.query, "expired") == std::optional<std::string>("true")) {
      model["expired"] = true;
    }
    return Html(200, pages_->Render("login", model));
  }
  if (request.method != "POST") throw DomainError(errc::kRouteNotFound, "No such page.");
  std::string email = QueryParam(request.body, "email").value_or("");
  model["email"] = email;
  try {
    LoginResult login = services_.auth.authentication().Login(
        email, QueryParam(request.body, "password").value_or(""), request.remote_ip);
    return SignedIn(request, login, next);
  } catch (const DomainError& refusal) {
    Json error = refusal.ToJson();
    model["refusal"] = error;
    return Html(refusal.http_status(), pages_->Render("login", model));
  }
}

std::string UiApp::CookieAttributes(const HttpRequest& request, int max_age_seconds) const {
  // Secure when served over TLS: configured, or a TLS-terminating proxy says so.
  const bool secure = options_.secure_cookies || request.headers.Get("X-Forwarded-Proto") ==
                                                     std::optional<std::string_view>("https");
  return "; SameSite=Lax; Max-Age=" + std::to_string(max_age_seconds) + (secure ? "; Secure" : "");
}

HttpResponse UiApp::SignedIn(const HttpRequest& request, const LoginResult& login,
                             const std::string& next) const {
  HttpResponse response = ui::UiContext::Redirect(next);
  const std::string attributes =
      "; Path=/" + CookieAttributes(request, options_.session_ttl_hours * 3600);
  response.SetHeader("Set-Cookie", "dp_session=" + login.token + attributes + "; HttpOnly");
  response.SetHeader("Set-Cookie",
                     "dp_csrf=" + Authenticator::CsrfTokenFor(login.token) + attributes);
  return response;
}

HttpResponse UiApp::OidcBegin(const HttpRequest& request) {
  if (!services_.oidc || request.method != "GET") {
    throw DomainError(errc::kRouteNotFound, "No page at " + request.path + ".");
  }
  const std::string provider = request.path.substr(kOidcBeginPrefix.size());
  OidcSignIn::Redirect redirect = services_.oidc->Begin(provider, NextPath(request));
  HttpResponse response = ui::UiContext::Redirect(redirect.url);
  // Binds the sign-in to this browser: the callback must bring the same state back.
  response.SetHeader("Set-Cookie", "dp_oauth2_authz=" + redirect.state +
                                       "; Path=" + std::string(kOidcCallbackPrefix) +
                                       CookieAttributes(request, 600) + "; HttpOnly");
  return response;
}

HttpResponse UiApp::OidcCallback(const HttpRequest& request) {
  if (!services_.oidc || request.method != "GET") {
    throw DomainError(errc::kRouteNotFound, "No page at " + request.path + ".");
  }
  const std::string provider = request.path.substr(kOidcCallbackPrefix.size());
  OidcSignIn::Callback callback{QueryParam(request.query, "code").value_or(""),
                                QueryParam(request.query, "state").value_or(""),
                                CookieValue(request.headers, "dp_oauth2_authz").value_or(""),
                                QueryParam(request.query, "error").value_or("")};
  HttpResponse response;
  try {
    OidcSignIn::Completed done = services_.oidc->Complete(provider, callback, request.remote_ip);
    response = SignedIn(request, done.login, done.next_path);
  } catch (const DomainError& refusal) {
    if (refusal.code() == errc::kRouteNotFound || IsOutage(refusal)) throw;
    response = ui::UiContext::Redirect("/ui/login?error=" + std::string(refusal.code().code));
  }
  response.SetHeader("Set-Cookie", "dp_oauth2_authz=; Path=" + std::string(kOidcCallbackPrefix) +
                                       "; Max-Age=0; HttpOnly; SameSite=Lax");
  return response;
}

HttpResponse UiApp::Logout(const HttpRequest& request) {
  if (auto cookie = CookieValue(request.headers, "dp_session"))
    services_.auth.authentication().Logout(*cookie);
  HttpResponse response = ui::UiContext::Redirect("/ui/login?ok=signed_out");
  response.SetHeader("Set-Cookie", "dp_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
  response.SetHeader("Set-Cookie", "dp_csrf=; Path=/; Max-Age=0; SameSite=Lax");
  return response;
}

}  // namespace dp
