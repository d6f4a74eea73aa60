// One connection's life: TLS detection and handshake, the request loop, header-time
// admission, dispatch and the answer — written, streamed as SSE or refused before close.
#include "http/http_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/net/event_stream.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

using asio::use_awaitable;

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

// The whole request: its line and headers as above, and the body that was read.
HttpRequest ToHttpRequest(bhttp::request<bhttp::string_body>&& beast_request,
                          const std::string& remote_ip, int max_json_depth) {
  HttpRequest request = HeadersOnly(beast_request, remote_ip);
  request.max_json_depth = max_json_depth;
  request.body = std::move(beast_request.body());
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

std::string NewCorrelation(const bhttp::request<bhttp::string_body>& partial) {
  HttpHeaders headers;
  if (auto it = partial.find("DP-Correlation-Id"); it != partial.end()) {
    headers.Add("DP-Correlation-Id", std::string(it->value()));
  }
  return RequestPolicy::CorrelationIdFor(headers);
}

double Millis(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
      .count();
}

}  // namespace

// The polite refusal of a connection over a cap: a fixed 503, then close.
awaitable<void> HttpSession::Refuse(SessionHost& host, std::shared_ptr<Connection> connection) {
  beast::tcp_stream* stream = &connection->stream;
  std::string correlation_id = RequestPolicy::CorrelationIdFor(HttpHeaders{});
  HttpResponse refusal = ErrorResponse(503, errc::kServiceUnavailable,
                                       "Too many connections; retry shortly.", correlation_id);
  refusal.SetHeader("Retry-After", "1");
  auto response = ToBeastResponse(std::move(refusal), correlation_id, 11, false);
  beast::error_code ec;
  stream->expires_after(host.options.write_timeout);
  co_await bhttp::async_write(*stream, response, asio::redirect_error(use_awaitable, ec));
  stream->socket().shutdown(tcp::socket::shutdown_both, ec);
  stream->socket().close(ec);
}

// Serves the connection on its I/O thread (Accept put it there), so its socket is never
// touched concurrently.
awaitable<void> HttpSession::Run(SessionHost& host, std::shared_ptr<Connection> connection,
                                 std::string remote_ip, ConnectionAdmission::Admission admitted) {
  HttpSession session(host, std::move(connection), std::move(remote_ip), admitted);
  co_await session.Start();
}

HttpSession::HttpSession(SessionHost& host, std::shared_ptr<Connection> connection,
                         std::string remote_ip, ConnectionAdmission::Admission admitted)
    : host_(host),
      connection_(std::move(connection)),
      remote_ip_(std::move(remote_ip)),
      admitted_(admitted) {
  host_.connections.Add(connection_);
}

HttpSession::~HttpSession() {
  host_.connections.Remove(connection_);
  host_.admission.ReleaseConnection(remote_ip_, admitted_);
}

bool HttpSession::IsProbeTarget(std::string_view target) const {
  const std::string_view path = target.substr(0, target.find('?'));
  const auto& paths = host_.options.probe_paths;
  return std::find(paths.begin(), paths.end(), path) != paths.end();
}

awaitable<void> HttpSession::Start() {
  beast::flat_buffer buffer;
  beast::error_code ec;
  std::shared_ptr<ssl::context> tls = host_.current_tls ? host_.current_tls() : nullptr;
  if (!tls) {
    co_await Serve(connection_->stream, buffer);
    connection_->stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    co_return;
  }
  // A TLS port: a client speaking plain HTTP gets a readable 400 instead of a reset. No
  // request has begun, so shutdown may close it like an idle one.
  connection_->idle = true;
  connection_->stream.expires_after(host_.options.idle_timeout);
  bool handshake = co_await beast::async_detect_ssl(connection_->stream, buffer,
                                                    asio::redirect_error(use_awaitable, ec));
  if (ec) co_return;
  if (!handshake) {
    co_await RefuseAndClose(connection_->stream, 400, errc::kRequestInvalid,
                            "This port serves HTTPS only: use https://.");
    co_return;
  }
  connection_->tls_context = tls;
  connection_->tls.emplace(std::move(connection_->stream), *tls);
  auto& stream = *connection_->tls;
  beast::get_lowest_layer(stream).expires_after(host_.options.write_timeout);
  std::size_t used = co_await stream.async_handshake(ssl::stream_base::server, buffer.data(),
                                                     asio::redirect_error(use_awaitable, ec));
  if (ec) co_return;  // not a TLS client we can serve; nothing was read as a request
  buffer.consume(used);
  co_await Serve(stream, buffer);
  beast::get_lowest_layer(stream).expires_after(host_.options.refusal_drain);
  co_await stream.async_shutdown(asio::redirect_error(use_awaitable, ec));
}

// The request loop of one connection, over a plain or a TLS stream.
template <typename Stream>
awaitable<void> HttpSession::Serve(Stream& wire, beast::flat_buffer& buffer) {
  Stream* stream = &wire;
  for (;;) {
    if (host_.stopping) break;
    connection_->idle = true;
    bhttp::request_parser<bhttp::string_body> parser;
    parser.header_limit(static_cast<std::uint32_t>(host_.options.max_header_bytes));
    parser.body_limit(static_cast<std::uint64_t>(host_.options.max_body_bytes));
    // A reserve connection holds its slot only as long as a probe takes to send its request.
    beast::get_lowest_layer(*stream).expires_after(probe_only() ? host_.options.refusal_drain
                                                                : host_.options.idle_timeout);
    beast::error_code ec;
    co_await bhttp::async_read_header(*stream, buffer, parser,
                                      asio::redirect_error(use_awaitable, ec));
    connection_->idle = false;
    if (ec == bhttp::error::header_limit) {
      co_await RefuseAndClose(
          *stream, 431, errc::kRequestHeaderTooLarge,
          "Request headers exceed " + std::to_string(host_.options.max_header_bytes) + " bytes.");
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
    if (probe_only() && !IsProbeTarget(std::string_view(parser.get().target().data(),
                                                        parser.get().target().size()))) {
      co_await RefuseAndClose(*stream, 503, errc::kServiceUnavailable,
                              "Too many connections; retry shortly.");
      break;
    }
    std::optional<ConnectionAdmission::BodyReservation> reservation;
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
      head = HeadersOnly(parser.get(), remote_ip_);
      head->remote_ip = host_.client_address.Resolve(remote_ip_, head->headers);
      // A request the edge refuses anyway (bad text, Host, Origin) keeps that answer.
      if (host_.options.admit_headers && !host_.policy.Refusal(*head) &&
          !(host_.options.admit_headers_inline && host_.options.admit_headers_inline(*head))) {
        auto admit = &host_.options.admit_headers;
        const HttpRequest* headers_only = &*head;
        std::optional<HttpResponse> refusal = co_await asio::co_spawn(
            host_.blocking,
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
      if (!host_.admission.ReserveBody(reserve)) {
        co_await RefuseAndClose(*stream, 503, errc::kServiceUnavailable,
                                "Too many request bytes in flight; retry shortly.");
        break;
      }
      reservation.emplace(host_.admission, reserve);
    }
    InFlightGuard serving(host_.in_flight);
    if (!co_await ServeOne(*stream, buffer, parser, std::move(head)) || probe_only()) {
      break;
    }
  }
}

// Reads the body, dispatches, writes; false when the connection must close.
template <typename Stream>
awaitable<bool> HttpSession::ServeOne(Stream& stream, beast::flat_buffer& buffer,
                                      bhttp::request_parser<bhttp::string_body>& parser,
                                      std::optional<HttpRequest> head) {
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
    keep_alive = parser.get().keep_alive() && !host_.stopping && !probe_only();
    if (head) {  // the headers were converted for admission already: only the body is new
      request = std::move(*head);
      request.body = std::move(parser.release().body());
      request.max_json_depth = host_.options.max_json_depth;
    } else {
      request = ToHttpRequest(parser.release(), remote_ip_, host_.options.max_json_depth);
      request.remote_ip = host_.client_address.Resolve(remote_ip_, request.headers);
      request.correlation_id = RequestPolicy::CorrelationIdFor(request.headers);
    }
    correlation_id = request.correlation_id;
    connection_->correlation_id = correlation_id;
    try {
      response = co_await Dispatch(request);
    } catch (const DomainError& refusal) {  // e.g. an outage met before a route's own handler
      response = ErrorEnvelope(refusal, correlation_id);
    } catch (const std::exception& e) {
      spdlog::error("correlation_id={} unhandled error: {}", correlation_id, e.what());
      response = ErrorResponse(500, errc::kInternal, "Internal error.", correlation_id);
    }
  }
  int status = response.status;
  if (!host_.options.tls_certificate_file.empty())
    response.SetHeader("Strict-Transport-Security", "max-age=31536000");
  if (response.stream) {
    co_await WriteStream(stream, std::move(response), correlation_id, version);
    if (host_.access_logger) {
      request.correlation_id = correlation_id;
      host_.access_logger(request, status, Millis(started));
    }
    co_return false;  // a streamed body ends with the connection
  }
  auto beast_response = ToBeastResponse(std::move(response), correlation_id, version, keep_alive,
                                        request.method == "HEAD");
  beast::get_lowest_layer(stream).expires_after(host_.options.write_timeout);
  co_await bhttp::async_write(stream, beast_response, asio::redirect_error(use_awaitable, ec));
  if (host_.access_logger) {
    double millis =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    request.correlation_id = correlation_id;
    host_.access_logger(request, status, millis);
  }
  co_return !ec && keep_alive;
}

// Checks and routes one request; host_.blocking handlers hop to the pool and back.
awaitable<HttpResponse> HttpSession::Dispatch(HttpRequest& request) {
  if (std::optional<EdgeRefusal> refusal = host_.policy.Refusal(request)) {
    co_return ErrorResponse(refusal->status, *refusal->code, refusal->message,
                            request.correlation_id);
  }
  RouteMatch match = host_.router.Match(request.method, request.path);
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
      host_.blocking,
      [handler, &request]() -> awaitable<HttpResponse> { co_return (*handler)(request); },
      use_awaitable);
}

int64_t HttpSession::BodyLimitFor(std::string_view target) const {
  std::string_view path = target.substr(0, target.find('?'));
  auto it = host_.options.body_limit_by_path.find(std::string(path));
  return it == host_.options.body_limit_by_path.end()
             ? host_.options.max_body_bytes
             : std::min(it->second, host_.options.max_body_bytes);
}

// A text/event-stream body, chunk by chunk as the producer writes it. The pickup interval
// grows from 1 ms to 50 ms while nothing arrives and resets on each write.
template <typename Stream>
awaitable<void> HttpSession::WriteStream(Stream& stream, HttpResponse response,
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
        std::chrono::steady_clock::now() - last_write > host_.options.sse_keep_alive) {
      chunks.push_back(": keep-alive\n\n");
    }
    if (!chunks.empty()) last_write = std::chrono::steady_clock::now();
    for (const std::string& chunk : chunks) {
      beast::get_lowest_layer(stream).expires_after(host_.options.write_timeout);
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

std::string HttpSession::BodyTooLargeMessage() const {
  return "Request body exceeds " + std::to_string(host_.options.max_body_bytes) + " bytes.";
}

// Answers a request that cannot be read, then closes: half-close first and drain briefly,
// so the client reads the status instead of a reset caused by its unread upload.
template <typename Stream>
awaitable<void> HttpSession::RefuseAndClose(Stream& stream, int status, const ErrorCode& code,
                                            const std::string& message) {
  std::string correlation_id = RequestPolicy::CorrelationIdFor(HttpHeaders{});
  HttpResponse refusal = ErrorResponse(status, code, message, correlation_id);
  if (status == 503) refusal.SetHeader("Retry-After", "1");
  co_await RespondAndClose(stream, std::move(refusal), correlation_id);
}

template <typename Stream>
awaitable<void> HttpSession::RespondAndClose(Stream& stream, HttpResponse refusal,
                                             const std::string& correlation_id) {
  auto response = ToBeastResponse(std::move(refusal), correlation_id, 11, false);
  beast::error_code ec;
  auto& transport = beast::get_lowest_layer(stream);
  transport.expires_after(host_.options.write_timeout);
  co_await bhttp::async_write(stream, response, asio::redirect_error(use_awaitable, ec));
  transport.socket().shutdown(tcp::socket::shutdown_send, ec);
  std::array<char, 16384> sink;
  transport.expires_after(host_.options.refusal_drain);
  for (std::size_t drained = 0; !ec && drained < (8u << 20);) {
    drained += co_await stream.async_read_some(asio::buffer(sink),
                                               asio::redirect_error(use_awaitable, ec));
  }
}

void ConnectionRegistry::Add(const std::shared_ptr<Connection>& connection) {
  std::lock_guard lock(mutex_);
  open_.insert(connection);
}

void ConnectionRegistry::Remove(const std::shared_ptr<Connection>& connection) {
  std::lock_guard lock(mutex_);
  open_.erase(connection);
}

std::size_t ConnectionRegistry::Count() {
  std::lock_guard lock(mutex_);
  return open_.size();
}

void ConnectionRegistry::CloseIdle() {
  std::lock_guard lock(mutex_);
  for (const auto& connection : open_) {
    asio::post(connection->executor, [connection] {
      if (!connection->idle) return;
      beast::error_code ignored;
      connection->Transport().socket().cancel(ignored);
      connection->Transport().socket().close(ignored);
    });
  }
}

void SessionCompletion::operator()(const std::exception_ptr& error) const {
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

}  // namespace dp
