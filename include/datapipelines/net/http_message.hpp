#pragma once
#include <memory>
// Transport-neutral HTTP request/response, so mcp/ and rest/ never include Beast.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "datapipelines/util/json_body.hpp"

namespace dp {

class EventStream;

// Case-insensitive header lookup for the handful of headers handlers read.
class HttpHeaders {
 public:
  void Add(std::string name, std::string value);
  // First value of the header, or nullopt.
  std::optional<std::string_view> Get(std::string_view name) const;
  bool Has(std::string_view name) const { return Get(name).has_value(); }
  int Count(std::string_view name) const;
  const std::vector<std::pair<std::string, std::string>>& All() const { return entries_; }

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
};

struct HttpRequest {
  std::string method;  // "GET", "POST", …
  std::string target;  // path + query as received
  std::string path;    // target without the query
  std::string query;   // after '?', undecoded
  HttpHeaders headers;
  std::string body;
  std::string remote_ip;
  std::string correlation_id;  // set by the HTTP layer before routing
  // Deepest JSON nesting a handler may parse from `body` (datapipelines.http.max-json-depth).
  int max_json_depth = kDefaultMaxJsonDepth;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  void SetHeader(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
  // Set for a streamed (text/event-stream) response: the body comes from the stream as it is
  // produced, `body` is unused.
  std::shared_ptr<EventStream> stream;
};

// Query-string parameter, percent-decoded; nullopt when absent. A value that decodes to
// invalid UTF-8 or holds U+0000 is request.validation.invalid (DomainError).
std::optional<std::string> QueryParam(std::string_view query, std::string_view name);
// A named cookie's value from the Cookie header(s); nullopt when absent.
std::optional<std::string> CookieValue(const HttpHeaders& headers, std::string_view name);
// The same, as a view into the headers.
std::optional<std::string_view> CookieView(const HttpHeaders& headers, std::string_view name);

}  // namespace dp
