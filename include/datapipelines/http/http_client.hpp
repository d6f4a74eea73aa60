#pragma once
// A small blocking HTTP/1.1 client for the CLI's stdio bridge: one connection per request and
// the response body handed over piece by piece as it arrives, so an SSE answer streams. Beast
// stays inside src/http: this header exposes none of it.
#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "datapipelines/net/http_fetch.hpp"
#include "datapipelines/net/http_message.hpp"

namespace dp {

// An http:// or https:// URL split for connecting: host, port (default 80 / 443) and the
// path ("/" if none).
struct HttpUrl {
  bool tls = false;
  std::string host;
  std::string port;
  std::string path;
  // Throws std::invalid_argument naming what is wrong (scheme, host, port).
  static HttpUrl Parse(std::string_view url);
};

struct HttpClientRequest {
  std::string method = "POST";
  std::string target;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

class HttpClient {
 public:
  // https:// verifies the server's certificate chain and host name against the system's CA
  // store, or against ca_file (PEM) when one is given (a private CA, a throwaway certificate).
  // `io_timeout`: how long the whole exchange after the connect may take (0: as long as the
  // peer keeps the socket open — the stdio bridge's streamed answers). A peer that accepts and
  // then says nothing fails the request after it instead of holding the caller's thread.
  explicit HttpClient(HttpUrl origin, std::string ca_file = "",
                      std::chrono::seconds connect_timeout = std::chrono::seconds(10),
                      std::chrono::seconds io_timeout = std::chrono::seconds(0));

  // Blocking: connects, sends, calls on_head once with the status and headers, then on_body
  // for each piece of the body as it arrives. Throws std::runtime_error on a transport failure
  // (the message names the host and the failure, never a header value).
  void Send(const HttpClientRequest& request,
            const std::function<void(int status, const HttpHeaders& headers)>& on_head,
            const std::function<void(std::string_view piece)>& on_body) const;

  const HttpUrl& Origin() const { return origin_; }

 private:
  HttpUrl origin_;
  std::string ca_file_;
  std::chrono::seconds connect_timeout_;
  std::chrono::seconds io_timeout_;
};

// The HttpFetch port over this client: one connection per request, a body over
// `max_body_bytes` refused (a provider's document is small; a larger answer is not one), the
// whole exchange bounded by `io_timeout`.
HttpFetch MakeHttpFetch(std::size_t max_body_bytes, std::chrono::seconds io_timeout);

}  // namespace dp
