#include "datapipelines/http/http_server.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <array>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>

#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/net/event_stream.hpp"
#include "datapipelines/util/json.hpp"
#include "datapipelines/util/utf8.hpp"
#include "tls_context.hpp"

namespace dp {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace ssl = asio::ssl;
using asio::awaitable;
using asio::use_awaitable;
using tcp = asio::ip::tcp;

namespace {

HttpResponse ErrorResponse(int status, const ErrorCode& code, const std::string& message,
                           const std::string& correlation_id) {
  HttpResponse response;
  response.status = status;
  Json body = {{"schema_version", 1},
               {"correlation_id", correlation_id},
               {"error", {{"code", std::string(code.code)}, {"message", message}}}};
  response.body = body.dump();
  return response;
}

// The request line and headers of a request whose body has not been read (admit_headers).
HttpRequest HeadersOnly(const bhttp::request<bhttp::string_body>& partial,
                        const std::string& remote_ip) {
  HttpRequest request;
  request.method = std::string(partial.method_string());
  request.target = std::string(partial.target());
  auto question = request.target.find('?');
  request.path = request.target.substr(0, question);
  if (question != std::string::npos) request.query = request.target.substr(question + 1);
  for (const auto& field : partial) {
    request.headers.Add(std::string(field.name_string()), std::string(field.value()));
  }
  request.remote_ip = remote_ip;
  request.correlation_id = RequestPolicy::CorrelationIdFor(request.headers);
  return request;
}

HttpRequest ToHttpRequest(bhttp::request<bhttp::string_body>&& beast_request,
                          const std::string& remote_ip, int max_json_depth) {
  HttpRequest request;
  request.max_json_depth = max_json_depth;
  request.method = std::string(beast_request.method_string());
  request.target = std::string(beast_request.target());
  auto question = request.target.find('?');
  request.path = request.target.substr(0, question);
  if (question != std::string::npos) request.query = request.target.substr(question + 1);
  for (const auto& field : beast_request) {
    request.headers.Add(std::string(field.name_string()), std::string(field.value()));
  }
  request.body = std::move(beast_request.body());
  request.remote_ip = remote_ip;
  return request;
}

// A malformed request line, header block or body framing (Content-Length with
// Transfer-Encoding, duplicate or negative Content-Length, a bad chunk size, …): Beast's
// parser refuses it; we answer 400 before closing instead of dropping the connection.
bool IsMalformedFraming(const beast::error_code& ec) {
  static const auto& kHttpCategory = make_error_code(bhttp::error::bad_method).category();
  if (ec.category() != kHttpCategory) return false;
  auto code = static_cast<bhttp::error>(ec.value());
  return code != bhttp::error::end_of_stream && code != bhttp::error::partial_message &&
         code != bhttp::error::need_more && code != bhttp::error::need_buffer &&
         code != bhttp::error::header_limit && code != bhttp::error::body_limit &&
         code != bhttp::error::buffer_overflow;
}

// Every byte that enters as text is UTF-8 (issue 9): target, header names and values.
bool TextIsUtf8(const HttpRequest& request) {
  if (!IsValidUtf8(request.target)) return false;
  for (const auto& [name, value] : request.headers.All()) {
    if (!IsValidUtf8(name) || !IsValidUtf8(value)) return false;
  }
  return true;
}

bhttp::response<bhttp::string_body> ToBeastResponse(HttpResponse&& response,
                                                    const std::string& correlation_id,
                                                    unsigned version, bool keep_alive,
                                                    bool head = false) {
  bhttp::response<bhttp::string_body> out{static_cast<bhttp::status>(response.status), version};
  out.set(bhttp::field::server, "datapipelines");
  if (!response.body.empty() || response.status != 202) {
    out.set(bhttp::field::content_type, response.content_type);
  }
  out.set("DP-Correlation-Id", correlation_id);
  for (auto& [name, value] : response.headers) out.insert(name, value);
  out.body() = std::move(response.body);
  out.keep_alive(keep_alive);
  out.prepare_payload();
  // HEAD: the headers a GET would get (Content-Length included), never a body.
  if (head) out.body().clear();
  return out;
}

// One connection: its stream (used only on its I/O thread's context, `executor`) and the
// correlation id of the request it is serving, for the log line when the session ends by an
// exception. On a TLS port the plain stream moves into `tls` once the handshake starts.
struct Connection {
  explicit Connection(tcp::socket socket)
      : executor(socket.get_executor()), stream(std::move(socket)) {}
  asio::any_io_executor executor;
  beast::tcp_stream stream;
  std::shared_ptr<ssl::context> tls_context;  // outlives `tls`, whatever a reload does
  std::optional<beast::ssl_stream<beast::tcp_stream>> tls;
  std::string correlation_id;
  bool idle = false;  // waiting for a request's header (read and written on `executor` only)
  beast::tcp_stream& Transport() { return tls ? beast::get_lowest_layer(*tls) : stream; }
};

// The completion of a connection's coroutine: a session that ends by an exception is logged
// with its correlation id instead of vanishing (asio::detached would swallow it).
struct SessionCompletion {
  std::shared_ptr<Connection> connection;
  void operator()(const std::exception_ptr& error) const {
    if (!error) return;
    const std::string& correlation_id = connection ? connection->correlation_id : std::string();
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      spdlog::error("correlation_id={} connection ended by an unhandled error: {}", correlation_id,
                    e.what());
    } catch (...) {
      spdlog::error("correlation_id={} connection ended by an unknown error", correlation_id);
    }
  }
};

// Counts a request as in flight for exactly as long as it is served, exceptions included, so
// shutdown never waits out the grace period for a request that is gone.
class InFlightGuard {
 public:
  explicit InFlightGuard(std::atomic<int>& count) : count_(count) { ++count_; }
  ~InFlightGuard() { --count_; }
  InFlightGuard(const InFlightGuard&) = delete;
  InFlightGuard& operator=(const InFlightGuard&) = delete;

 private:
  std::atomic<int>& count_;
};

}  // namespace

struct HttpServer::Impl {
  HttpServerOptions options;
  RequestPolicy policy;
  Router router;
  AccessLogger access_logger;
  // What a session touches as it ends (its guards release counts and unregister it): declared
  // before `io`, so it outlives the coroutine frames that destroying `io` may still hold.
  std::atomic<bool> stopping{false};
  std::atomic<int> in_flight{0};
  std::atomic<int64_t> body_bytes_in_flight{0};
  std::mutex clients_mutex;
  int connections = 0;                              // guarded by clients_mutex
  std::unordered_map<std::string, int> per_client;  // open connections per client address
  std::mutex sessions_mutex;
  // Every open connection, registered once per connection (not per request): shutdown posts
  // a close onto each one's I/O thread, which closes it there only if it is idle.
  std::set<std::shared_ptr<Connection>> open_connections;
  // One io_context per I/O thread, as nginx runs one event loop per worker: a connection lives
  // on one thread's context from accept to close, so its coroutine, its timers and the
  // shutdown's close of it are serialized by that thread alone (no strand to pay on every
  // handler), and no request wakes another I/O thread. Contexts are made for one thread each
  // (concurrency hint 1), still safe to post to from the pool's threads.
  std::vector<std::unique_ptr<asio::io_context>> workers = MakeWorkers(options.io_threads);
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> keep_running =
      KeepRunning(workers);
  asio::io_context& io = *workers.front();  // signals, the accept loop, shutdown
  std::size_t next_worker = 0;              // on `control` only
  asio::thread_pool blocking{static_cast<std::size_t>(options.blocking_threads)};
  // The accept loop and the shutdown drain share one strand: both touch the acceptor.
  asio::strand<asio::io_context::executor_type> control{asio::make_strand(io)};
  tcp::acceptor acceptor{control};
  // The TLS context new connections use (null: plain HTTP); SIGHUP swaps in a reloaded one.
  std::mutex tls_mutex;
  std::shared_ptr<ssl::context> tls_context;

  Impl(HttpServerOptions o, RequestPolicy p, Router r, AccessLogger l)
      : options(std::move(o)),
        policy(std::move(p)),
        router(std::move(r)),
        access_logger(std::move(l)) {
    if (ServesTls()) {
      tls_context =
          LoadServerTlsContext(options.tls_certificate_file, options.tls_private_key_file);
    }
  }

  bool ServesTls() const { return !options.tls_certificate_file.empty(); }

  static std::vector<std::unique_ptr<asio::io_context>> MakeWorkers(int threads) {
    std::vector<std::unique_ptr<asio::io_context>> made;
    for (int i = 0; i < std::max(1, threads); ++i)
      made.push_back(std::make_unique<asio::io_context>(1));
    return made;
  }

  // A worker with no connection yet must not return from run(): each keeps a work guard
  // until shutdown stops them all.
  static std::vector<asio::executor_work_guard<asio::io_context::executor_type>> KeepRunning(
      const std::vector<std::unique_ptr<asio::io_context>>& contexts) {
    std::vector<asio::executor_work_guard<asio::io_context::executor_type>> guards;
    for (const auto& context : contexts) guards.push_back(asio::make_work_guard(*context));
    return guards;
  }

  // The I/O thread a new connection lives on: round robin.
  asio::io_context::executor_type NextWorker() {
    asio::io_context& worker = *workers[next_worker];
    next_worker = (next_worker + 1) % workers.size();
    return worker.get_executor();
  }

  void StopWorkers() {
    for (auto& context : workers) context->stop();
  }

  // Each SIGHUP re-reads the certificate on the pool, then waits for the next one.
  void ArmTlsReload(asio::signal_set& reload) {
    reload.async_wait([this, &reload](const beast::error_code& ec, int) {
      if (ec) return;
      asio::post(blocking, [this] { ReloadTls(); });
      ArmTlsReload(reload);
    });
  }

  std::shared_ptr<ssl::context> CurrentTlsContext() {
    std::lock_guard lock(tls_mutex);
    return tls_context;
  }

  // SIGHUP: re-read the certificate and key (on the pool: file I/O). Open connections keep
  // the context they shook hands with; a pair that does not load leaves the old one serving.
  void ReloadTls() {
    try {
      auto fresh = LoadServerTlsContext(options.tls_certificate_file, options.tls_private_key_file);
      std::lock_guard lock(tls_mutex);
      tls_context = std::move(fresh);
      spdlog::info("tls: certificate reloaded from {}", options.tls_certificate_file);
    } catch (const std::exception& e) {
      spdlog::error("tls: reload failed, still serving the previous certificate: {}", e.what());
    }
  }

  bool PassesEdgePolicy(const HttpRequest& head) const {
    auto host = head.headers.Get("Host");
    return TextIsUtf8(head) && head.headers.Count("Host") == 1 && host &&
           policy.HostAllowed(*host) && policy.OriginAllowed(head.headers.Get("Origin"));
  }

  // Checks and routes one request; blocking handlers hop to the pool and back.
  awaitable<HttpResponse> Dispatch(HttpRequest& request) {
    if (!TextIsUtf8(request)) {
      co_return ErrorResponse(400, errc::kRequestInvalid,
                              "The request target or a header is not valid UTF-8.",
                              request.correlation_id);
    }
    if (request.headers.Count("Host") > 1) {
      co_return ErrorResponse(400, errc::kRequestInvalid, "More than one Host header.",
                              request.correlation_id);
    }
    auto host = request.headers.Get("Host");
    if (!host || !policy.HostAllowed(*host)) {
      co_return ErrorResponse(403, errc::kHostNotAllowed, "Host header is not allowed.",
                              request.correlation_id);
    }
    if (!policy.OriginAllowed(request.headers.Get("Origin"))) {
      co_return ErrorResponse(403, errc::kOriginNotAllowed, "Origin is not allowed.",
                              request.correlation_id);
    }
    RouteMatch match = router.Match(request.method, request.path);
    if (!match.handler) {
      if (!match.allow.empty()) {
        HttpResponse response = ErrorResponse(405, errc::kMethodNotAllowed, "Method not allowed.",
                                              request.correlation_id);
        response.SetHeader("Allow", match.allow);
        co_return response;
      }
      co_return ErrorResponse(404, errc::kRouteNotFound, "No route for " + request.path + ".",
                              request.correlation_id);
    }
    const HttpHandler* handler = match.handler;
    if (match.execution == RouteExecution::kInline) co_return (*handler)(request);
    if (match.inline_attempt) {
      if (std::optional<HttpResponse> answer = (*match.inline_attempt)(request)) {
        co_return std::move(*answer);
      }
    }
    co_return co_await asio::co_spawn(
        blocking,
        [handler, &request]() -> awaitable<HttpResponse> { co_return (*handler)(request); },
        use_awaitable);
  }

  // The connection caps (per process, per client address); false = over a cap.
  bool AdmitConnection(const std::string& ip) {
    std::lock_guard lock(clients_mutex);
    if (connections >= options.max_connections) return false;
    int& mine = per_client[ip];
    if (mine >= options.max_connections_per_client) {
      if (mine == 0) per_client.erase(ip);
      return false;
    }
    ++mine;
    ++connections;
    return true;
  }

  void ReleaseConnection(const std::string& ip) {
    std::lock_guard lock(clients_mutex);
    --connections;
    if (auto it = per_client.find(ip); it != per_client.end() && --it->second <= 0) {
      per_client.erase(it);
    }
  }

  // Body bytes are reserved before they are read and released when the request is done.
  struct BodyReservation {
    BodyReservation(Impl* owner, int64_t reserved) : impl(owner), bytes(reserved) {}
    BodyReservation(const BodyReservation&) = delete;
    BodyReservation& operator=(const BodyReservation&) = delete;
    ~BodyReservation() { impl->body_bytes_in_flight -= bytes; }
    Impl* impl;
    int64_t bytes;
  };
  bool ReserveBody(int64_t bytes) {
    int64_t now = body_bytes_in_flight.fetch_add(bytes) + bytes;
    if (now <= options.max_body_bytes_in_flight) return true;
    body_bytes_in_flight -= bytes;
    return false;
  }

  int64_t BodyLimitFor(std::string_view target) const {
    std::string_view path = target.substr(0, target.find('?'));
    auto it = options.body_limit_by_path.find(std::string(path));
    return it == options.body_limit_by_path.end() ? options.max_body_bytes
                                                  : std::min(it->second, options.max_body_bytes);
  }

  // The polite refusal of a connection over a cap: a fixed 503, then close.
  awaitable<void> RefuseConnection(std::shared_ptr<Connection> connection) {
    beast::tcp_stream* stream = &connection->stream;
    std::string correlation_id = RequestPolicy::CorrelationIdFor(HttpHeaders{});
    HttpResponse refusal = ErrorResponse(503, errc::kServiceUnavailable,
                                         "Too many connections; retry shortly.", correlation_id);
    refusal.SetHeader("Retry-After", "1");
    auto response = ToBeastResponse(std::move(refusal), correlation_id, 11, false);
    beast::error_code ec;
    stream->expires_after(options.write_timeout);
    co_await bhttp::async_write(*stream, response, asio::redirect_error(use_awaitable, ec));
    stream->socket().shutdown(tcp::socket::shutdown_both, ec);
    stream->socket().close(ec);
  }

  // Runs on the connection's I/O thread (Accept), so its socket is never touched concurrently.
  awaitable<void> Session(std::shared_ptr<Connection> connection, std::string remote_ip) {
    {
      std::lock_guard lock(sessions_mutex);
      open_connections.insert(connection);
    }
    struct Release {
      Impl* impl;
      std::string ip;
      std::shared_ptr<Connection> connection;
      ~Release() {
        {
          std::lock_guard lock(impl->sessions_mutex);
          impl->open_connections.erase(connection);
        }
        impl->ReleaseConnection(ip);
      }
    } release{this, remote_ip, connection};
    beast::flat_buffer buffer;
    beast::error_code ec;
    std::shared_ptr<ssl::context> tls = CurrentTlsContext();
    if (!tls) {
      co_await Serve(connection->stream, connection, buffer, remote_ip);
      connection->stream.socket().shutdown(tcp::socket::shutdown_send, ec);
      co_return;
    }
    // A TLS port: a client speaking plain HTTP gets a readable 400 instead of a reset. No
    // request has begun, so shutdown may close it like an idle one.
    connection->idle = true;
    connection->stream.expires_after(options.idle_timeout);
    bool handshake = co_await beast::async_detect_ssl(connection->stream, buffer,
                                                      asio::redirect_error(use_awaitable, ec));
    if (ec) co_return;
    if (!handshake) {
      co_await RefuseAndClose(connection->stream, 400, errc::kRequestInvalid,
                              "This port serves HTTPS only: use https://.");
      co_return;
    }
    connection->tls_context = tls;
    connection->tls.emplace(std::move(connection->stream), *tls);
    auto& stream = *connection->tls;
    beast::get_lowest_layer(stream).expires_after(options.write_timeout);
    std::size_t used = co_await stream.async_handshake(ssl::stream_base::server, buffer.data(),
                                                       asio::redirect_error(use_awaitable, ec));
    if (ec) co_return;  // not a TLS client we can serve; nothing was read as a request
    buffer.consume(used);
    co_await Serve(stream, connection, buffer, remote_ip);
    beast::get_lowest_layer(stream).expires_after(options.refusal_drain);
    co_await stream.async_shutdown(asio::redirect_error(use_awaitable, ec));
  }

  // The request loop of one connection, over a plain or a TLS stream.
  template <typename Stream>
  awaitable<void> Serve(Stream& wire, const std::shared_ptr<Connection>& connection,
                        beast::flat_buffer& buffer, const std::string& remote_ip) {
    Stream* stream = &wire;
    for (;;) {
      if (stopping) break;
      connection->idle = true;
      bhttp::request_parser<bhttp::string_body> parser;
      parser.header_limit(static_cast<std::uint32_t>(options.max_header_bytes));
      parser.body_limit(static_cast<std::uint64_t>(options.max_body_bytes));
      beast::get_lowest_layer(*stream).expires_after(options.idle_timeout);
      beast::error_code ec;
      co_await bhttp::async_read_header(*stream, buffer, parser,
                                        asio::redirect_error(use_awaitable, ec));
      connection->idle = false;
      if (ec == bhttp::error::header_limit) {
        co_await RefuseAndClose(
            *stream, 431, errc::kRequestHeaderTooLarge,
            "Request headers exceed " + std::to_string(options.max_header_bytes) + " bytes.");
        break;
      }
      if (ec == bhttp::error::body_limit) {  // a Content-Length over the limit, seen in the header
        co_await RefuseAndClose(*stream, 413, errc::kRequestBodyTooLarge, BodyTooLargeMessage());
        break;
      }
      if (IsMalformedFraming(ec)) {
        co_await RefuseAndClose(*stream, 400, errc::kRequestInvalid,
                                "Malformed HTTP request: " + ec.message() + ".");
        break;
      }
      if (ec) break;  // closed, idle timeout or shutdown
      std::optional<BodyReservation> reservation;
      // Built before the body is read, completed after it.
      std::optional<HttpRequest> head;
      if (!parser.is_done()) {  // a body follows: bound it before a byte of it is read
        const auto target = parser.get().target();
        const int64_t limit = BodyLimitFor(std::string_view(target.data(), target.size()));
        auto length = parser.content_length();
        if (length && *length > static_cast<std::uint64_t>(limit)) {
          co_await RefuseAndClose(*stream, 413, errc::kRequestBodyTooLarge,
                                  "Request body exceeds " + std::to_string(limit) + " bytes.");
          break;
        }
        parser.body_limit(static_cast<std::uint64_t>(limit));
        // The credential first: an unauthenticated body is never read, nor reserved.
        head = HeadersOnly(parser.get(), remote_ip);
        // A request the edge refuses anyway (bad text, Host, Origin) keeps that answer.
        if (options.admit_headers && PassesEdgePolicy(*head) &&
            !(options.admit_headers_inline && options.admit_headers_inline(*head))) {
          auto admit = &options.admit_headers;
          const HttpRequest* headers_only = &*head;
          std::optional<HttpResponse> refusal = co_await asio::co_spawn(
              blocking,
              [admit, headers_only]() -> awaitable<std::optional<HttpResponse>> {
                co_return (*admit)(*headers_only);
              },
              use_awaitable);
          if (refusal) {
            co_await RespondAndClose(*stream, std::move(*refusal), head->correlation_id);
            break;
          }
        }
        const int64_t reserve = length ? static_cast<int64_t>(*length) : limit;
        if (!ReserveBody(reserve)) {
          co_await RefuseAndClose(*stream, 503, errc::kServiceUnavailable,
                                  "Too many request bytes in flight; retry shortly.");
          break;
        }
        reservation.emplace(this, reserve);
      }
      InFlightGuard serving(in_flight);
      if (!co_await ServeOne(*stream, *connection, buffer, parser, remote_ip, std::move(head))) {
        break;
      }
    }
  }

  // Reads the body, dispatches, writes; false when the connection must close.
  template <typename Stream>
  awaitable<bool> ServeOne(Stream& stream, Connection& connection, beast::flat_buffer& buffer,
                           bhttp::request_parser<bhttp::string_body>& parser,
                           const std::string& remote_ip, std::optional<HttpRequest> head) {
    auto started = std::chrono::steady_clock::now();
    beast::error_code ec;
    std::string correlation_id;
    HttpResponse response;
    bool keep_alive = false;
    unsigned version = parser.get().version();
    if (!parser.is_done()) {
      co_await bhttp::async_read(stream, buffer, parser, asio::redirect_error(use_awaitable, ec));
    }
    HttpRequest request;
    if (ec == bhttp::error::body_limit) {
      correlation_id = NewCorrelation(parser.get());
      response =
          ErrorResponse(413, errc::kRequestBodyTooLarge, BodyTooLargeMessage(), correlation_id);
      request.method = std::string(parser.get().method_string());
      request.path = std::string(parser.get().target());
    } else if (IsMalformedFraming(ec)) {  // e.g. a bad chunk size
      co_await RefuseAndClose(stream, 400, errc::kRequestInvalid,
                              "Malformed HTTP request: " + ec.message() + ".");
      co_return false;
    } else if (ec) {
      co_return false;
    } else {
      keep_alive = parser.get().keep_alive() && !stopping;
      if (head) {  // the headers were converted for admission already: only the body is new
        request = std::move(*head);
        request.body = std::move(parser.release().body());
        request.max_json_depth = options.max_json_depth;
      } else {
        request = ToHttpRequest(parser.release(), remote_ip, options.max_json_depth);
        request.correlation_id = RequestPolicy::CorrelationIdFor(request.headers);
      }
      correlation_id = request.correlation_id;
      connection.correlation_id = correlation_id;
      try {
        response = co_await Dispatch(request);
      } catch (const std::exception& e) {
        spdlog::error("correlation_id={} unhandled error: {}", correlation_id, e.what());
        response = ErrorResponse(500, errc::kInternal, "Internal error.", correlation_id);
      }
    }
    int status = response.status;
    if (ServesTls()) response.SetHeader("Strict-Transport-Security", "max-age=31536000");
    if (response.stream) {
      co_await WriteStream(stream, std::move(response), correlation_id, version);
      if (access_logger) {
        request.correlation_id = correlation_id;
        access_logger(request, status, Millis(started));
      }
      co_return false;  // a streamed body ends with the connection
    }
    auto beast_response = ToBeastResponse(std::move(response), correlation_id, version, keep_alive,
                                          request.method == "HEAD");
    beast::get_lowest_layer(stream).expires_after(options.write_timeout);
    co_await bhttp::async_write(stream, beast_response, asio::redirect_error(use_awaitable, ec));
    if (access_logger) {
      double millis =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
              .count();
      request.correlation_id = correlation_id;
      access_logger(request, status, millis);
    }
    co_return !ec && keep_alive;
  }

  static double Millis(std::chrono::steady_clock::time_point started) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
        .count();
  }

  // A text/event-stream body, chunk by chunk as the producer writes it. The pickup interval
  // grows from 1 ms to 50 ms while nothing arrives and resets on each write.
  template <typename Stream>
  awaitable<void> WriteStream(Stream& stream, HttpResponse response,
                              const std::string& correlation_id, unsigned version) {
    auto events = response.stream;
    bhttp::response<bhttp::empty_body> head{static_cast<bhttp::status>(response.status), version};
    head.set(bhttp::field::server, "datapipelines");
    head.set(bhttp::field::content_type, "text/event-stream");
    head.set(bhttp::field::cache_control, "no-cache");
    head.set("DP-Correlation-Id", correlation_id);
    for (auto& [name, value] : response.headers) head.insert(name, value);
    head.chunked(true);
    head.keep_alive(false);
    beast::error_code ec;
    bhttp::response_serializer<bhttp::empty_body> serializer{head};
    beast::get_lowest_layer(stream).expires_never();
    co_await bhttp::async_write_header(stream, serializer, asio::redirect_error(use_awaitable, ec));
    asio::steady_timer timer(co_await asio::this_coro::executor);
    auto pause = std::chrono::milliseconds(1);
    auto last_write = std::chrono::steady_clock::now();
    while (!ec) {
      bool closed = false;
      std::vector<std::string> chunks = events->Drain(closed);
      // An idle stream gets a comment now and then, so proxies do not cut a long call.
      if (chunks.empty() &&
          std::chrono::steady_clock::now() - last_write > options.sse_keep_alive) {
        chunks.push_back(": keep-alive\n\n");
      }
      if (!chunks.empty()) last_write = std::chrono::steady_clock::now();
      for (const std::string& chunk : chunks) {
        beast::get_lowest_layer(stream).expires_after(options.write_timeout);
        co_await asio::async_write(stream, bhttp::make_chunk(asio::buffer(chunk)),
                                   asio::redirect_error(use_awaitable, ec));
        if (ec) break;
      }
      if (ec) break;
      if (closed) {
        co_await asio::async_write(stream, bhttp::make_chunk_last(),
                                   asio::redirect_error(use_awaitable, ec));
        break;
      }
      pause = chunks.empty() ? std::min(pause * 2, std::chrono::milliseconds(50))
                             : std::chrono::milliseconds(1);
      timer.expires_after(pause);
      co_await timer.async_wait(asio::redirect_error(use_awaitable, ec));
    }
    // The client went away (or the write failed): the producer stops writing.
    if (ec) events->Cancel();
  }

  std::string BodyTooLargeMessage() const {
    return "Request body exceeds " + std::to_string(options.max_body_bytes) + " bytes.";
  }

  // Answers a request that cannot be read, then closes: half-close first and drain briefly,
  // so the client reads the status instead of a reset caused by its unread upload.
  template <typename Stream>
  awaitable<void> RefuseAndClose(Stream& stream, int status, const ErrorCode& code,
                                 const std::string& message) {
    std::string correlation_id = RequestPolicy::CorrelationIdFor(HttpHeaders{});
    HttpResponse refusal = ErrorResponse(status, code, message, correlation_id);
    if (status == 503) refusal.SetHeader("Retry-After", "1");
    co_await RespondAndClose(stream, std::move(refusal), correlation_id);
  }

  template <typename Stream>
  awaitable<void> RespondAndClose(Stream& stream, HttpResponse refusal,
                                  const std::string& correlation_id) {
    auto response = ToBeastResponse(std::move(refusal), correlation_id, 11, false);
    beast::error_code ec;
    auto& transport = beast::get_lowest_layer(stream);
    transport.expires_after(options.write_timeout);
    co_await bhttp::async_write(stream, response, asio::redirect_error(use_awaitable, ec));
    transport.socket().shutdown(tcp::socket::shutdown_send, ec);
    std::array<char, 16384> sink;
    transport.expires_after(options.refusal_drain);
    for (std::size_t drained = 0; !ec && drained < (8u << 20);) {
      drained += co_await stream.async_read_some(asio::buffer(sink),
                                                 asio::redirect_error(use_awaitable, ec));
    }
  }

  static std::string NewCorrelation(const bhttp::request<bhttp::string_body>& partial) {
    HttpHeaders headers;
    if (auto it = partial.find("DP-Correlation-Id"); it != partial.end()) {
      headers.Add("DP-Correlation-Id", std::string(it->value()));
    }
    return RequestPolicy::CorrelationIdFor(headers);
  }

  awaitable<void> Accept() {
    asio::steady_timer timer(control);
    std::chrono::milliseconds backoff{0};
    for (;;) {
      beast::error_code ec;
      // Each connection lives on one I/O thread's context, which serializes its coroutine and
      // the shutdown's close of an idle socket as a strand would (see `workers`).
      tcp::socket socket =
          co_await acceptor.async_accept(NextWorker(), asio::redirect_error(use_awaitable, ec));
      if (ec) {
        if (stopping || ec == asio::error::operation_aborted) co_return;
        // EMFILE / ENFILE (or any accept failure): keep serving the connections we have and
        // back off instead of spinning on a listen queue we cannot drain.
        backoff = std::min(std::max(backoff * 2, std::chrono::milliseconds(10)),
                           std::chrono::milliseconds(1000));
        if (backoff == std::chrono::milliseconds(10)) {
          spdlog::warn("accept failed ({}); backing off", ec.message());
        }
        timer.expires_after(backoff);
        beast::error_code ignored;
        co_await timer.async_wait(asio::redirect_error(use_awaitable, ignored));
        continue;
      }
      backoff = std::chrono::milliseconds(0);
      socket.set_option(tcp::no_delay(true), ec);
      std::string remote_ip;
      auto endpoint = socket.remote_endpoint(ec);
      if (!ec) remote_ip = endpoint.address().to_string();
      auto connection = std::make_shared<Connection>(std::move(socket));
      auto executor = connection->executor;
      if (!AdmitConnection(remote_ip)) {
        asio::co_spawn(executor, RefuseConnection(connection), SessionCompletion{connection});
        continue;
      }
      asio::co_spawn(executor, Session(connection, std::move(remote_ip)),
                     SessionCompletion{connection});
    }
  }

  // Stop accepting, close idle connections, wait for in-flight requests, then stop.
  awaitable<void> DrainAndStop() {
    beast::error_code ignored;
    acceptor.close(ignored);
    CloseIdle();
    auto deadline = std::chrono::steady_clock::now() + options.shutdown_grace;
    asio::steady_timer timer(control);
    // Until the requests are answered and the closed sessions have ended: a session still
    // suspended when `io` stops would end only when `io` is destroyed.
    while ((in_flight > 0 || OpenConnections() > 0) &&
           std::chrono::steady_clock::now() < deadline) {
      timer.expires_after(std::chrono::milliseconds(in_flight > 0 ? 20 : 1));
      co_await timer.async_wait(asio::redirect_error(use_awaitable, ignored));
      CloseIdle();
    }
    if (in_flight > 0)
      spdlog::warn("shutdown grace elapsed with {} request(s) in flight", in_flight.load());
    StopWorkers();
  }

  // Closes the connections waiting for a request. The close itself is posted onto each
  // connection's I/O thread and skipped there when the connection is serving one: there the
  // session's idle flag cannot change under it, and a session that is not idle sees
  // `stopping` before it reads the next request.
  std::size_t OpenConnections() {
    std::lock_guard lock(sessions_mutex);
    return open_connections.size();
  }

  void CloseIdle() {
    std::lock_guard lock(sessions_mutex);
    for (const auto& connection : open_connections) {
      asio::post(connection->executor, [connection] {
        if (!connection->idle) return;
        beast::error_code ignored;
        connection->Transport().socket().cancel(ignored);
        connection->Transport().socket().close(ignored);
      });
    }
  }

  awaitable<void> Heartbeat() {
    asio::steady_timer timer(control);
    beast::error_code ec;
    while (!stopping) {
      options.heartbeat();
      timer.expires_after(options.heartbeat_interval);
      co_await timer.async_wait(asio::redirect_error(use_awaitable, ec));
    }
  }

  void BeginShutdown() {
    bool expected = false;
    if (!stopping.compare_exchange_strong(expected, true)) return;
    spdlog::info("shutdown: no longer accepting; grace {} s", options.shutdown_grace.count());
    if (options.on_shutdown) options.on_shutdown();
    asio::co_spawn(control, DrainAndStop(), SessionCompletion{});
  }
};

HttpServer::HttpServer(HttpServerOptions options, RequestPolicy policy, Router router,
                       AccessLogger access_logger)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(policy), std::move(router),
                                   std::move(access_logger))) {}

HttpServer::~HttpServer() { impl_->blocking.join(); }

void HttpServer::Listen() {
  auto address = asio::ip::make_address(impl_->options.address);
  tcp::endpoint endpoint(address, static_cast<unsigned short>(impl_->options.port));
  auto& acceptor = impl_->acceptor;
  acceptor.open(endpoint.protocol());
  acceptor.set_option(asio::socket_base::reuse_address(true));
  beast::error_code ec;
  acceptor.bind(endpoint, ec);
  if (ec) {
    throw std::runtime_error("cannot listen on " + impl_->options.address + ":" +
                             std::to_string(impl_->options.port) + ": " + ec.message());
  }
  acceptor.listen(asio::socket_base::max_listen_connections);
}

int HttpServer::BoundPort() const { return impl_->acceptor.local_endpoint().port(); }

void HttpServer::Run(bool handle_signals) {
  auto& io = impl_->io;
  asio::signal_set signals(io);
  if (handle_signals) {
    signals.add(SIGTERM);
    signals.add(SIGINT);
    signals.async_wait([this](const beast::error_code& ec, int) {
      if (!ec) impl_->BeginShutdown();
    });
  }
  asio::signal_set reload(io);
  if (handle_signals && impl_->ServesTls()) {
    reload.add(SIGHUP);
    impl_->ArmTlsReload(reload);
  }
  asio::co_spawn(impl_->control, impl_->Accept(), SessionCompletion{});
  if (impl_->options.on_serving) asio::post(impl_->control, impl_->options.on_serving);
  if (impl_->options.heartbeat && impl_->options.heartbeat_interval.count() > 0) {
    asio::co_spawn(impl_->control, impl_->Heartbeat(), SessionCompletion{});
  }
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < impl_->workers.size(); ++i) {
    threads.emplace_back([worker = impl_->workers[i].get()] { worker->run(); });
  }
  io.run();
  for (auto& thread : threads) thread.join();
}

void HttpServer::Shutdown() {
  asio::post(impl_->io, [this] { impl_->BeginShutdown(); });
}

}  // namespace dp
