#pragma once
// The web UI for the human verbs (issue 17): server-rendered pages under /ui/, authenticated
// by the dp_session cookie only, every state change a CSRF-checked form POST answered by a
// redirect (post/redirect/get), so every page works with JavaScript off; htmx (boosted
// navigation, live filters) is a progressive layer. Every action calls the same service
// function its REST route calls: the UI adds no rule of its own.
#include <memory>
#include <string>

#include "datapipelines/net/http_message.hpp"

namespace dp {

class AccountService;
class AuthService;
class CheckRunService;
class DatasourceService;
class ExecutionService;
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
};

struct UiOptions {
  int session_ttl_hours = 8;
  bool secure_cookies = false;  // served over TLS: cookies carry Secure
};

class UiApp {
 public:
  UiApp(UiServices services, UiOptions options);
  ~UiApp();

  // GET|POST /ui/... and GET / (a redirect to /ui/).
  HttpResponse Handle(const HttpRequest& request);
  // GET /ui/static/...: embedded bytes with a long cache header (never blocks).
  HttpResponse HandleStatic(const HttpRequest& request) const;

 private:
  HttpResponse Route(const HttpRequest& request);
  HttpResponse Login(const HttpRequest& request);
  HttpResponse Logout(const HttpRequest& request);

  UiServices services_;
  UiOptions options_;
  std::unique_ptr<PageRenderer> pages_;
};

// The headers every UI response carries: a strict Content-Security-Policy (no inline script or
// style), X-Frame-Options DENY, Referrer-Policy, nosniff.
void AddUiSecurityHeaders(HttpResponse& response);

}  // namespace dp
