#pragma once
// /api/v1 (REST API spec) and the unauthenticated skill routes. Translation only: parse,
// authenticate through the shared RequestAuthenticator, call one service, build an envelope.
#include <string>

#include "datapipelines/auth/principal.hpp"
#include "datapipelines/net/http_message.hpp"

namespace dp {

class AuthService;
class RequestAuthenticator;
class SkillDocs;

struct RestApiOptions {
  int session_ttl_hours = 8;
  bool secure_cookies = false;  // set when served behind TLS
};

class RestApi {
 public:
  RestApi(AuthService& auth, RequestAuthenticator& authenticator, const SkillDocs& docs,
          RestApiOptions options);

  // Everything under /api/v1/.
  HttpResponse HandleApi(const HttpRequest& request);
  // GET /skill.md and GET /skill/{reference}.md.
  HttpResponse HandleSkill(const HttpRequest& request) const;

 private:
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
};

}  // namespace dp
