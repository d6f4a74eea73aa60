#pragma once
// /api/v1 (REST API spec) and the unauthenticated skill routes. Translation only: parse,
// authenticate through the shared RequestAuthenticator, call one service, build an envelope.
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "datapipelines/net/http_message.hpp"
#include "datapipelines/service/identity/operation.hpp"
#include "datapipelines/service/identity/principal.hpp"

namespace dp {

class AuthService;
class EndpointService;
class RequestAuthenticator;
class SkillDocs;

// One route a resource serves: its method, its full path pattern and the operation whose floor
// the router enforces before the handler runs.
struct RestRouteInfo {
  std::string method;
  std::string pattern;  // "/api/v1/templates/{id}/versions/{version}"
  Operation operation;
};

// A group of routes under one path prefix (e.g. /api/v1/templates), called after the caller
// is authenticated; nullopt means "no route of mine matches".
struct RestResource {
  std::function<std::optional<HttpResponse>(const HttpRequest&, const Principal&)> handle;
  std::vector<RestRouteInfo> routes;  // what `handle` serves (the access walk reads it)
};

struct RestApiOptions {
  int session_ttl_hours = 8;
  bool secure_cookies = false;  // set when served behind TLS
};

class RestApi {
 public:
  // Key issuance with kind and bindings goes through the endpoint service (auth.md §7.7),
  // which is built after the API it mounts on: `endpoints` reaches it once it exists. Without
  // one (tests of other routes) bindings are refused.
  using EndpointServicePort = std::function<EndpointService*()>;
  RestApi(AuthService& auth, RequestAuthenticator& authenticator, const SkillDocs& docs,
          RestApiOptions options, EndpointServicePort endpoints = nullptr);

  // Everything under /api/v1/.
  HttpResponse HandleApi(const HttpRequest& request);
  // GET /skill.md and GET /skill/{reference}.md.
  HttpResponse HandleSkill(const HttpRequest& request) const;
  // Serves every path equal to or below `prefix` with `resource` (startup only).
  void Mount(std::string prefix, RestResource resource);
  // Every route of every mounted resource, in mount order.
  std::vector<RestRouteInfo> Routes() const;

 private:
  // Every authenticated call: the kind and CSRF gates, then the route.
  HttpResponse Route(const HttpRequest& request, const Principal& principal);
  HttpResponse Dispatch(const HttpRequest& request, const Principal& principal);
  HttpResponse AdminAudit(const HttpRequest& request, const Principal& principal);
  HttpResponse RevokeAllKeys(const HttpRequest& request, const Principal& principal);
  HttpResponse Login(const HttpRequest& request);
  HttpResponse Logout(const HttpRequest& request);
  HttpResponse Me(const HttpRequest& request, const Principal& principal);
  HttpResponse CreateKey(const HttpRequest& request, const Principal& principal);
  HttpResponse ListKeys(const HttpRequest& request, const Principal& principal);
  HttpResponse RevokeKey(const HttpRequest& request, const Principal& principal,
                         const std::string& key_id);

  AuthService& auth_;
  RequestAuthenticator& authenticator_;
  const SkillDocs& docs_;
  RestApiOptions options_;
  std::vector<std::pair<std::string, RestResource>> mounts_;
  EndpointServicePort endpoints_;
};

}  // namespace dp
