#pragma once
// The routes of one REST resource as a table of path patterns: each route names its method, its
// path below the resource's prefix ("", "/{id}", "/{id}/versions/{version}/render"), where
// {name} captures one percent-decoded segment, and its operation (service/identity/operation.hpp),
// whose floor is enforced before the handler runs. Patterns are parsed once, at startup; a request
// takes the first route whose method and pattern match, in the order they were added.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "datapipelines/net/http_message.hpp"
#include "datapipelines/rest/rest_api.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// One matched request: the request, its caller and the segments the pattern captured.
class RestCall {
 public:
  RestCall(const HttpRequest& request, const Principal& principal,
           std::vector<std::pair<std::string_view, std::string>> params)
      : request(request), principal(principal), params_(std::move(params)) {}

  // The captured segment `{name}`; the route's pattern guarantees it exists.
  const std::string& Param(std::string_view name) const;
  // The same segment as an integer, or request.validation.invalid naming `name`.
  int IntParam(std::string_view name) const;
  // The success envelope of `data` (rest-api §2) under this request's correlation id.
  HttpResponse Ok(Json data, int status = 200) const;
  // The JSON body with `name` set from the path's {name}: the path names the resource, so a
  // body cannot name another one.
  Json BodyNamedByPath() const;

  const HttpRequest& request;
  const Principal& principal;

 private:
  std::vector<std::pair<std::string_view, std::string>> params_;
};

using RestHandler = std::function<HttpResponse(const RestCall& call)>;

class RestRouter {
 public:
  explicit RestRouter(std::string prefix) : prefix_(std::move(prefix)) {}

  RestRouter& On(std::string_view method, std::string_view pattern, Operation operation,
                 RestHandler handler);
  // The response of the first matching route; nullopt when none matches (the API answers
  // request.route.not_found).
  std::optional<HttpResponse> Route(const HttpRequest& request, const Principal& principal) const;
  // This table as a resource to mount under its prefix.
  RestResource Resource() &&;

 private:
  struct Segment {
    std::string text;  // the literal, or the capture's name
    bool capture = false;
  };
  struct Entry {
    std::string method;
    std::string pattern;
    std::vector<Segment> segments;
    Operation operation;
    RestHandler handler;
  };

  std::string prefix_;
  std::vector<Entry> routes_;
};

}  // namespace dp
