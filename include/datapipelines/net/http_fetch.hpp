#pragma once
// An outbound HTTP request as a port: the services that call another server (an OpenID
// provider's discovery, keys and token endpoints) take this function, and the composition root
// hands them the HTTP client (src/http), so no service depends on the transport. Blocking.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "datapipelines/net/http_message.hpp"

namespace dp {

struct HttpFetchRequest {
  std::string method = "GET";
  std::string url;  // absolute http:// or https://
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

struct HttpFetchResponse {
  int status = 0;
  HttpHeaders headers;
  std::string body;
};

// Throws std::runtime_error on a transport failure or a body over the fetcher's cap.
using HttpFetch = std::function<HttpFetchResponse(const HttpFetchRequest&)>;

}  // namespace dp
