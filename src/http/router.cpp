#include "datapipelines/http/router.hpp"

namespace dp {

void Router::Add(std::string method, std::string path, HttpHandler handler,
                 RouteExecution execution) {
  bool prefix = path.size() >= 2 && path.compare(path.size() - 2, 2, "/*") == 0;
  if (prefix) path.resize(path.size() - 1);  // keep the trailing '/'
  routes_.push_back(
      {std::move(method), std::move(path), prefix, std::move(handler), execution, {}});
}

void Router::Add(std::string method, std::string path, HttpHandler handler, InlineAttempt attempt) {
  Add(std::move(method), std::move(path), std::move(handler), RouteExecution::kBlockingPool);
  routes_.back().inline_attempt = std::move(attempt);
}

RouteMatch Router::Match(const std::string& method, const std::string& path) const {
  RouteMatch match;
  for (const auto& route : routes_) {
    bool path_matches = route.prefix ? path.rfind(route.path, 0) == 0 : path == route.path;
    if (!path_matches) continue;
    if (route.method == "*" || route.method == method) {
      match.handler = &route.handler;
      match.execution = route.execution;
      if (route.inline_attempt) match.inline_attempt = &route.inline_attempt;
      match.method_allowed = true;
      return match;
    }
    if (!match.allow.empty()) match.allow += ", ";
    match.allow += route.method;
  }
  return match;
}

}  // namespace dp
