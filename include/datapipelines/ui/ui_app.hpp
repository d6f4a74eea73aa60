#pragma once
// The web UI for the human verbs (issue 17): server-rendered pages under /ui/, authenticated
// by the dp_session cookie only, every state change a CSRF-checked form POST answered by a
// redirect (post/redirect/get), so every page works with JavaScript off; htmx (boosted
// navigation, live filters) is a progressive layer. Every action calls the same service
// function its REST route calls: the UI adds no rule of its own.
#include <memory>
#include <string>

#include "datapipelines/net/http_message.hpp"
#include "datapipelines/service/identity/authenticator.hpp"

namespace dp {

class AccountService;
class AuthService;
class CheckRunService;
class DatasourceService;
class ExecutionService;
class OidcSignIn;
class PageRenderer;
class PipelineService;
class RequestAuthenticator;
class TemplateService;
class WorkspaceAdminService;

struct UiServices {
  AuthService& auth;
  RequestAuthenticator& authenticator;
  PipelineService& pipelines;
  TemplateService& templates;
  DatasourceService& datasources;
  ExecutionService& executions;
  CheckRunService& checks;
  WorkspaceAdminService& admin;
  AccountService& account;
  OidcSignIn* oidc = nullptr;  // null: no OpenID provider configured
};

struct UiOptions {
  int session_ttl_hours = 8;
  bool secure_cookies = false;  // served over TLS: cookies carry Secure
};

class UiApp {
 public:
  UiApp(UiServices services, UiOptions options);
  ~UiApp();

  // GET|POST /ui/..., GET / (a redirect to /ui/) and the two legs of an OIDC sign-in.
  HttpResponse Handle(const HttpRequest& request);
  // GET /ui/static/...: embedded bytes with a long cache header (never blocks).
  HttpResponse HandleStatic(const HttpRequest& request) const;

 private:
  HttpResponse Route(const HttpRequest& request);
  HttpResponse Login(const HttpRequest& request);
  HttpResponse Logout(const HttpRequest& request);
  HttpResponse ToPasswordChange(const HttpRequest& request);
  // GET /oauth2/authorization/<provider>: off to the provider (auth.md §5.4 step 1).
  HttpResponse OidcBegin(const HttpRequest& request);
  // GET /login/oauth2/code/<provider>: back from it, signed in or refused (steps 2–5).
  HttpResponse OidcCallback(const HttpRequest& request);
  // The dp_session and dp_csrf cookies of a new session, on a redirect to `next`.
  HttpResponse SignedIn(const HttpRequest& request, const LoginResult& login,
                        const std::string& next) const;
  std::string CookieAttributes(const HttpRequest& request, int max_age_seconds) const;

  UiServices services_;
  UiOptions options_;
  std::unique_ptr<PageRenderer> pages_;
};

// The headers every UI response carries: a strict Content-Security-Policy (no inline script or
// style), X-Frame-Options DENY, Referrer-Policy, nosniff.
void AddUiSecurityHeaders(HttpResponse& response);

}  // namespace dp
