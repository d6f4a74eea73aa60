#include "datapipelines/rest/rest_api.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/audit/access_audit.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/audit/rest_call_audit.hpp"
#include "datapipelines/service/docs/skill_docs.hpp"
#include "datapipelines/service/endpoints/endpoint_service.hpp"
#include "datapipelines/service/identity/account_rules.hpp"
#include "datapipelines/service/identity/api_key_view.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/service/identity/request_authenticator.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

constexpr std::string_view kApiPrefix = "/api/v1";
constexpr std::string_view kKeysPath = "/api/v1/auth/api-keys";

Json PrincipalJson(const Principal& principal) {
  return Json{
      {"user_id", principal.user_id},
      {"email", principal.email},
      {"display_name", principal.display_name},
      {"workspace", {{"id", principal.workspace_id}, {"name", principal.workspace_name}}},
      {"flags", principal.membership ? FlagsJson(*principal.membership) : Json()},
      {"super_admin", principal.super_admin},
      {"auth", principal.via_session ? "session" : "api_key"},
      {"key_id", principal.via_session ? Json() : Json(principal.key_id)},
      {"scope", principal.via_session ? Json() : Json(std::string(ToString(principal.scope)))}};
}

// Cookie-authenticated writes must send DP-CSRF-Token = the session's own token (the dp_csrf
// cookie carries it for the browser to read); a planted cookie proves nothing.
void RequireCsrf(const HttpRequest& request, const Principal& principal) {
  if (!principal.via_session || request.method == "GET") return;
  auto session = CookieValue(request.headers, "dp_session");
  auto header = request.headers.Get("DP-CSRF-Token");
  if (!session || !header || !Authenticator::CsrfTokenMatches(*session, *header)) {
    throw DomainError(errc::kCsrfInvalid, "Cookie-authenticated writes need DP-CSRF-Token.",
                      Json{{"reason", !header ? "missing" : "mismatch"}});
  }
}

// A scopeless kind is confined to its own route family (auth.md §7.7): an endpoint key reaches
// /api/v1 only to read an execution it started (GET /executions/{id} and …/result, ownership
// proved by the service); a server key nowhere here.
void RequireUserKindOnApi(const HttpRequest& request, const Principal& principal) {
  if (principal.kind == KeyKind::kUser) return;
  if (principal.kind == KeyKind::kEndpoint && request.method == "GET") {
    constexpr std::string_view kExecutions = "/api/v1/executions/";
    if (request.path.rfind(kExecutions, 0) == 0) {
      std::string rest = request.path.substr(kExecutions.size());
      std::size_t slash = rest.find('/');
      if (!rest.empty() && (slash == std::string::npos || rest.substr(slash) == "/result")) return;
    }
  }
  const bool server = principal.kind == KeyKind::kServer;
  throw DomainError(errc::kEndpointKeyKindRefused,
                    server ? "A server key opens the promotion routes only."
                           : "An endpoint key calls GET /api/x/… and reads the executions it "
                             "started; nothing else under /api/v1.",
                    Json{{"reason", server ? "server_key_off_surface" : "endpoint_key_off_surface"},
                         {"kind", std::string(ToString(principal.kind))}});
}

}  // namespace

RestApi::RestApi(AuthService& auth, RequestAuthenticator& authenticator, const SkillDocs& docs,
                 RestApiOptions options, EndpointServicePort endpoints)
    : auth_(auth),
      authenticator_(authenticator),
      docs_(docs),
      options_(options),
      endpoints_(std::move(endpoints)) {}

HttpResponse RestApi::HandleApi(const HttpRequest& request) {
  const std::string& path = request.path;
  if (path == "/api/v1/auth/login" && request.method == "POST") {
    try {
      return Login(request);  // audited by its own auth.login.* events
    } catch (const DomainError& error) {
      return ErrorEnvelope(error, request.correlation_id);
    }
  }
  std::optional<Principal> caller;
  RestCallAudit writes(auth_.audit_log());
  // The choke point: one rest.write row per mutating call, whatever its outcome.
  auto audit = [&](int status, std::string_view code) {
    if (!caller || !RestCallAudit::IsMutating(request.method)) return;
    writes.Record(*caller, request.method, path, status,
                  status >= 500 && code == errc::kInternal.code ? "internal_error"
                  : status < 400                                ? "success"
                                                                : "error",
                  code, request.correlation_id, request.remote_ip);
  };
  const AccessTarget target{"rest", request.method, path, request.correlation_id,
                            request.remote_ip};
  try {
    AuthenticatedRequest authenticated =
        authenticator_.Authenticate(RequestCredentials::FromHeaders(request.headers),
                                    request.remote_ip, CredentialPolicy::kApiKeyOrSession, path);
    caller = authenticated.principal;
    RecordSuperAdminActing(auth_.audit_log(), *caller, target);
    HttpResponse response = Route(request, *caller);
    AddRateLimitHeaders(response, authenticated.rate);
    audit(response.status, "");
    return response;
  } catch (const DomainError& error) {
    HttpResponse response = ErrorEnvelope(error, request.correlation_id);
    audit(response.status, error.code().code);
    if (caller) RecordAccessRefusal(auth_.audit_log(), *caller, error.code().code, target);
    return response;
  } catch (...) {
    audit(500, errc::kInternal.code);
    throw;
  }
}

HttpResponse RestApi::Route(const HttpRequest& request, const Principal& principal) {
  const std::string& path = request.path;
  RequireUserKindOnApi(request, principal);
  RequireCsrf(request, principal);
  HttpResponse response;
  if (path == "/api/v1/auth/logout" && request.method == "POST") {
    response = Logout(request);
  } else if (path == "/api/v1/auth/me" && request.method == "GET") {
    response = Me(request, principal);
  } else if (path == "/api/v1/auth/password" && request.method == "POST") {
    Json body = ParseBody(request);
    auth_.accounts().ChangeOwnPassword(principal, RequiredString(body, "current_password"),
                                       RequiredString(body, "new_password"), request.remote_ip);
    response = NoContent();
  } else if (path == kKeysPath && request.method == "POST") {
    response = CreateKey(request, principal);
  } else if (path == kKeysPath && request.method == "GET") {
    response = ListKeys(request, principal);
  } else if (path.rfind(std::string(kKeysPath) + "/", 0) == 0 && request.method == "DELETE") {
    response = RevokeKey(request, principal, path.substr(kKeysPath.size() + 1));
  } else if (path == "/api/v1/admin/audit" && request.method == "GET") {
    response = AdminAudit(request, principal);
  } else if (path == "/api/v1/admin/api-keys/revoke-all" && request.method == "POST") {
    response = RevokeAllKeys(request, principal);
  } else {
    response = Dispatch(request, principal);
  }
  return response;
}

HttpResponse RestApi::AdminAudit(const HttpRequest& request, const Principal& principal) {
  auth_.accounts().RequireInstanceAdmin(principal);
  AuditReadRequest read = AuditReadRequest::FromJson(
      QueryArguments(request, {.strings = {"since", "event"}, .integers = {"limit", "offset"}}),
      NowMs());
  AuditLog::Page page = auth_.audit_log().Read(read);
  Json items = Json::array();
  for (const AuditEvent& row : page.rows) items.push_back(AuditLog::View(row));
  Json data{{"items", std::move(items)},
            {"pagination",
             {{"offset", read.window.offset},
              {"limit", read.window.limit},
              {"has_more", page.has_more}}}};
  return SuccessEnvelope(std::move(data), request.correlation_id);
}

HttpResponse RestApi::RevokeAllKeys(const HttpRequest& request, const Principal& principal) {
  auth_.accounts().RequireInstanceAdmin(principal);
  Json body = ParseBody(request);
  std::vector<std::string> revoked =
      auth_.keys().RevokeAllKeysOf(RequiredString(body, "user_email"), principal.user_id);
  return SuccessEnvelope(Json{{"revoked", revoked}, {"count", revoked.size()}},
                         request.correlation_id);
}

void RestApi::Mount(std::string prefix, RestResource resource) {
  mounts_.push_back({std::move(prefix), std::move(resource)});
}

std::vector<RestRouteInfo> RestApi::Routes() const {
  std::vector<RestRouteInfo> out;
  for (const auto& [prefix, resource] : mounts_) {
    out.insert(out.end(), resource.routes.begin(), resource.routes.end());
  }
  return out;
}

HttpResponse RestApi::Dispatch(const HttpRequest& request, const Principal& principal) {
  const std::string& path = request.path;
  for (const auto& [prefix, resource] : mounts_) {
    bool under = path == prefix || (path.size() > prefix.size() && path.rfind(prefix, 0) == 0 &&
                                    path[prefix.size()] == '/');
    if (!under) continue;
    if (auto response = resource.handle(request, principal)) return std::move(*response);
  }
  throw DomainError(errc::kRouteNotFound, "No route for " + request.method + " " + path + ".");
}

HttpResponse RestApi::Login(const HttpRequest& request) {
  Json body = ParseBody(request);
  LoginResult login = auth_.authentication().Login(
      RequiredString(body, "email"), RequiredString(body, "password"), request.remote_ip);
  std::string csrf = Authenticator::CsrfTokenFor(login.token);
  HttpResponse response = SuccessEnvelope(Json{{"principal", PrincipalJson(login.principal)},
                                               {"expires_at", FormatIso8601Ms(login.expires_at_ms)},
                                               {"csrf_token", csrf}},
                                          request.correlation_id);
  std::string attributes =
      "; Path=/; SameSite=Strict; Max-Age=" + std::to_string(options_.session_ttl_hours * 3600) +
      (options_.secure_cookies ? "; Secure" : "");
  response.SetHeader("Set-Cookie", "dp_session=" + login.token + attributes + "; HttpOnly");
  response.SetHeader("Set-Cookie", "dp_csrf=" + csrf + attributes);
  return response;
}

HttpResponse RestApi::Logout(const HttpRequest& request) {
  if (auto cookie = CookieValue(request.headers, "dp_session"))
    auth_.authentication().Logout(*cookie);
  HttpResponse response;
  response.status = 204;
  response.content_type.clear();
  response.SetHeader("Set-Cookie", "dp_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict");
  response.SetHeader("Set-Cookie", "dp_csrf=; Path=/; Max-Age=0; SameSite=Strict");
  return response;
}

HttpResponse RestApi::Me(const HttpRequest& request, const Principal& principal) {
  return SuccessEnvelope(PrincipalJson(principal), request.correlation_id);
}

HttpResponse RestApi::CreateKey(const HttpRequest& request, const Principal& principal) {
  ApiKeyIssueRequest create = ApiKeyIssueRequest::FromJson(ParseBody(request));
  EndpointService* endpoints = endpoints_ ? endpoints_() : nullptr;
  IssuedApiKey issued = endpoints ? endpoints->IssueKey(principal, create)
                                  : auth_.keys().CreateApiKey(principal, create);
  Json data = ApiKeyView(issued.record);
  if (issued.record.kind == KeyKind::kEndpoint) data["bindings"] = create.bindings;
  data["api_key"] = issued.plaintext;  // shown once, never again
  return SuccessEnvelope(std::move(data), request.correlation_id, 201);
}

HttpResponse RestApi::ListKeys(const HttpRequest& request, const Principal& principal) {
  Json keys = Json::array();
  for (const auto& key : auth_.keys().ListApiKeys(principal)) keys.push_back(ApiKeyView(key));
  return SuccessEnvelope(Json{{"items", std::move(keys)}}, request.correlation_id);
}

HttpResponse RestApi::RevokeKey(const HttpRequest& request, const Principal& principal,
                                const std::string& key_id) {
  auth_.keys().RevokeApiKey(principal, key_id);
  return NoContent();
}

HttpResponse RestApi::HandleSkill(const HttpRequest& request) const {
  std::string name;
  if (request.path == "/skill.md") {
    name = "skill";
  } else {
    name = request.path.substr(std::string_view("/skill/").size());
    if (name.size() < 4 || name.substr(name.size() - 3) != ".md" || name == "skill.md")
      name.clear();
  }
  const SkillDoc* doc = name.empty() ? nullptr : docs_.Find(name);
  if (!doc) {
    return ErrorEnvelope(
        DomainError(errc::kSkillReferenceNotFound, "No skill reference at " + request.path + ".",
                    Json{{"reason", "skill_reference_not_found"}, {"known_docs", docs_.Names()}}),
        request.correlation_id);
  }
  HttpResponse response;
  response.content_type = "text/markdown; charset=utf-8";
  response.body = std::string(doc->markdown);
  return response;
}

}  // namespace dp
