#pragma once
// Maps method + path to a handler. Handlers are plain synchronous functions: the server runs
// them on the blocking pool (they may touch databases), except routes marked inline, which
// must not block and run on the I/O thread (health checks, the benchmark's trivial route).
// A pool route may also carry an inline attempt: tried first on the I/O thread, it answers
// what it can without blocking (nullopt: it did nothing) and the pool handler does the rest.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/net/http_message.hpp"

namespace dp {

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;
using InlineAttempt = std::function<std::optional<HttpResponse>(const HttpRequest&)>;

enum class RouteExecution { kBlockingPool, kInline };

struct RouteMatch {
  const HttpHandler* handler = nullptr;  // nullptr: no route for this path
  RouteExecution execution = RouteExecution::kBlockingPool;
  const InlineAttempt* inline_attempt = nullptr;  // tried first on the I/O thread, if any
  bool method_allowed = false;                    // path known but method not registered → 405
  std::string allow;                              // "GET, POST" for the 405 Allow header
};

class Router {
 public:
  // path: exact ("/mcp") or a prefix ending in "/*" ("/api/v1/*"). method "*" = any method.
  void Add(std::string method, std::string path, HttpHandler handler,
           RouteExecution execution = RouteExecution::kBlockingPool);
  // A pool route whose requests `attempt` may answer first, on the I/O thread.
  void Add(std::string method, std::string path, HttpHandler handler, InlineAttempt attempt);
  RouteMatch Match(const std::string& method, const std::string& path) const;

 private:
  struct Route {
    std::string method;
    std::string path;
    bool prefix;
    HttpHandler handler;
    RouteExecution execution;
    InlineAttempt inline_attempt;
  };
  std::vector<Route> routes_;
};

}  // namespace dp
