#pragma once
// GET /api/x/** (REST API §19.3–19.6): one handler for the whole subtree, no runtime route
// registration — a published endpoint is a row. Authenticates the API key (any kind; never a
// session), charges the key owner's rate budget, and hands the request to EndpointService;
// then writes the answer: the §7.3 JSON envelope or text/csv, ETag and Cache-Control from the
// result's TTL, 202 with the pointers on timeout, Allow: GET on 405.
#include "datapipelines/net/http_message.hpp"

namespace dp {

class EndpointService;
class RequestAuthenticator;

class PublishedEndpointHandler {
 public:
  PublishedEndpointHandler(RequestAuthenticator& authenticator, EndpointService& endpoints);
  HttpResponse Handle(const HttpRequest& request);

 private:
  RequestAuthenticator& authenticator_;
  EndpointService& endpoints_;
};

}  // namespace dp
