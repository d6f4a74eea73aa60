#pragma once
// The HTTP/1.1 server: one io_context run by N threads, a coroutine per connection
// (Beast's own examples), keep-alive, header/body/idle limits, and a separate bounded pool
// for handlers that block. Beast stays inside src/http: this header exposes none of it.
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/http/request_policy.hpp"
#include "datapipelines/http/router.hpp"

namespace dp {

struct HttpServerOptions {
  std::string address = "127.0.0.1";
  int port = 8080;  // 0 = any free port (tests); see BoundPort()
  int io_threads = 2;
  int blocking_threads = 16;
  int64_t max_body_bytes = 1 << 20;
  int64_t max_header_bytes = 16 * 1024;
  int max_json_depth = 64;  // stamped on every request (HttpRequest::max_json_depth)
  // Resource bounds (issue 9). A connection over either cap is answered 503 and closed.
  int max_connections = 4096;
  int max_connections_per_client = 256;
  // Connections kept back beyond both caps for the probes: while the caps are full (a flood
  // from many addresses), a connection in this reserve is served one request to a probe path
  // and closed, so an orchestrator never kills a server that is in fact fine.
  int reserved_probe_connections = 8;
  std::vector<std::string> probe_paths = {"/healthz", "/readyz", "/metrics"};
  // Proxies (addresses or CIDRs) whose X-Forwarded-For names the client; empty: the header is
  // ignored and the direct peer is the client (HttpRequest::remote_ip).
  std::vector<std::string> trusted_proxies;
  // Body bytes buffered across all connections at once; a request that would pass it is
  // answered 503 (Retry-After) before its body is read.
  int64_t max_body_bytes_in_flight = 64 << 20;
  // Smaller body limits for some exact paths (e.g. the login), checked on Content-Length.
  std::map<std::string, int64_t> body_limit_by_path;
  // Runs on the blocking pool after the headers of a request that has a body, before the body
  // is read: a response here is sent instead (and the connection closed) — e.g. a missing or
  // invalid credential, so an unauthenticated client cannot make the server buffer bodies.
  std::function<std::optional<HttpResponse>(const HttpRequest& headers_only)> admit_headers;
  // Tried first, on the I/O thread: true admits the headers without the pool hop (a credential
  // already validated in the cache); false leaves the decision to admit_headers.
  std::function<bool(const HttpRequest& headers_only)> admit_headers_inline;
  std::chrono::seconds idle_timeout{60};
  // Both set: the port serves TLS only (re-read on SIGHUP); a plain request gets 400.
  std::string tls_certificate_file;
  std::string tls_private_key_file;
  // A response write (or one SSE chunk) that cannot complete this long closes the connection.
  std::chrono::seconds write_timeout{30};
  // An idle SSE response gets a comment this often, so proxies do not cut a long call.
  std::chrono::seconds sse_keep_alive{15};
  // After a refusal (413, 431, 400, 503) the unread upload is drained this long before close,
  // so the client reads the status instead of a reset.
  std::chrono::seconds refusal_drain{2};
  std::chrono::seconds shutdown_grace{20};
  // Called once when a graceful shutdown begins (on an I/O thread: must return promptly) —
  // the application aborts running executions here so in-flight calls end within the grace.
  std::function<void()> on_shutdown;
  // Called once from the event loop when Run starts serving (readiness, e.g. sd_notify).
  std::function<void()> on_serving;
  // Called from the event loop every heartbeat_interval while it serves (a watchdog ping: it
  // proves the loop itself is not stuck). Zero = never.
  std::chrono::milliseconds heartbeat_interval{0};
  std::function<void()> heartbeat;
};

// Called once per finished request (access logging); must not block.
using AccessLogger = std::function<void(const HttpRequest&, int status, double millis)>;

class HttpServer {
 public:
  HttpServer(HttpServerOptions options, RequestPolicy policy, Router router,
             AccessLogger access_logger = nullptr);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and listens; throws std::runtime_error when the address is unavailable.
  void Listen();
  int BoundPort() const;
  // Runs until SIGTERM/SIGINT (when handle_signals) or Shutdown(); then stops accepting,
  // lets in-flight requests finish within the grace period and returns.
  void Run(bool handle_signals);
  // Thread-safe: begins a graceful shutdown.
  void Shutdown();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dp
