#include "datapipelines/rest/rest_router.hpp"

#include <memory>
#include <stdexcept>

#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/identity/access_policy.hpp"

namespace dp {

const std::string& RestCall::Param(std::string_view name) const {
  for (const auto& [key, value] : params_) {
    if (key == name) return value;
  }
  throw std::logic_error("no path parameter " + std::string(name));
}

int RestCall::IntParam(std::string_view name) const {
  return ParseIntField(Param(name), std::string(name));
}

Json RestCall::BodyNamedByPath() const {
  Json body = ParseBody(request);
  body["name"] = Param("name");
  return body;
}

HttpResponse RestCall::Ok(Json data, int status) const {
  return SuccessEnvelope(std::move(data), request.correlation_id, status);
}

RestRouter& RestRouter::On(std::string_view method, std::string_view pattern, Operation operation,
                           RestHandler handler) {
  Entry entry{std::string(method), std::string(pattern), {}, operation, std::move(handler)};
  while (!pattern.empty()) {
    if (pattern.front() != '/') throw std::logic_error("a route pattern starts with '/'");
    pattern.remove_prefix(1);
    std::string_view text = pattern.substr(0, pattern.find('/'));
    pattern.remove_prefix(text.size());
    bool capture = text.size() > 2 && text.front() == '{' && text.back() == '}';
    entry.segments.push_back(
        {std::string(capture ? text.substr(1, text.size() - 2) : text), capture});
  }
  routes_.push_back(std::move(entry));
  return *this;
}

std::optional<HttpResponse> RestRouter::Route(const HttpRequest& request,
                                              const Principal& principal) const {
  auto segments = PathSegmentsBelow(request.path, prefix_);
  if (!segments) return std::nullopt;
  for (const Entry& route : routes_) {
    if (route.method != request.method || route.segments.size() != segments->size()) continue;
    std::vector<std::pair<std::string_view, std::string>> params;
    bool matched = true;
    for (std::size_t i = 0; i < segments->size() && matched; ++i) {
      const Segment& segment = route.segments[i];
      if (segment.capture) {
        params.emplace_back(segment.text, (*segments)[i]);
      } else {
        matched = segment.text == (*segments)[i];
      }
    }
    if (!matched) continue;
    EnforceAccess(principal, route.operation);
    return route.handler(RestCall(request, principal, std::move(params)));
  }
  return std::nullopt;
}

RestResource RestRouter::Resource() && {
  std::vector<RestRouteInfo> routes;
  for (const Entry& route : routes_) {
    routes.push_back({route.method, prefix_ + route.pattern, route.operation});
  }
  auto router = std::make_shared<const RestRouter>(std::move(*this));
  return {[router](const HttpRequest& request, const Principal& principal) {
            return router->Route(request, principal);
          },
          std::move(routes)};
}

}  // namespace dp
