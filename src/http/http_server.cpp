#include "datapipelines/http/http_server.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <array>
#include <mutex>
#include <set>
#include <thread>

#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/net/event_stream.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
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

HttpRequest ToHttpRequest(bhttp::request<bhttp::string_body>&& beast_request,
                          const std::string& remote_ip) {
  HttpRequest request;
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

bhttp::response<bhttp::string_body> ToBeastResponse(HttpResponse&& response,
                                                    const std::string& correlation_id,
                                                    unsigned version, bool keep_alive) {
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
  return out;
}

}  // namespace

struct HttpServer::Impl {
  HttpServerOptions options;
  RequestPolicy policy;
  Router router;
  AccessLogger access_logger;
  asio::io_context io{options.io_threads};
  asio::thread_pool blocking{static_cast<std::size_t>(options.blocking_threads)};
  tcp::acceptor acceptor{io};
  std::atomic<bool> stopping{false};
  std::atomic<int> in_flight{0};
  std::mutex sessions_mutex;
  std::set<std::shared_ptr<beast::tcp_stream>> idle_streams;  // waiting for a request

  Impl(HttpServerOptions o, RequestPolicy p, Router r, AccessLogger l)
      : options(std::move(o)),
        policy(std::move(p)),
        router(std::move(r)),
        access_logger(std::move(l)) {}

  // Checks and routes one request; blocking handlers hop to the pool and back.
  awaitable<HttpResponse> Dispatch(HttpRequest& request) {
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
    co_return co_await asio::co_spawn(
        blocking,
        [handler, &request]() -> awaitable<HttpResponse> { co_return (*handler)(request); },
        use_awaitable);
  }

  awaitable<void> Session(tcp::socket socket) {
    auto stream = std::make_shared<beast::tcp_stream>(std::move(socket));
    std::string remote_ip;
    beast::error_code ignored;
    auto endpoint = stream->socket().remote_endpoint(ignored);
    if (!ignored) remote_ip = endpoint.address().to_string();
    beast::flat_buffer buffer;
    for (;;) {
      {
        std::lock_guard lock(sessions_mutex);
        if (stopping) break;
        idle_streams.insert(stream);
      }
      bhttp::request_parser<bhttp::string_body> parser;
      parser.header_limit(static_cast<std::uint32_t>(options.max_header_bytes));
      parser.body_limit(static_cast<std::uint64_t>(options.max_body_bytes));
      stream->expires_after(options.idle_timeout);
      beast::error_code ec;
      co_await bhttp::async_read_header(*stream, buffer, parser,
                                        asio::redirect_error(use_awaitable, ec));
      {
        std::lock_guard lock(sessions_mutex);
        idle_streams.erase(stream);
      }
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
      if (ec) break;  // closed, idle timeout, shutdown or a malformed header
      ++in_flight;
      bool keep_going = co_await ServeOne(*stream, buffer, parser, remote_ip);
      --in_flight;
      if (!keep_going) break;
    }
    stream->socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  // Reads the body, dispatches, writes; false when the connection must close.
  awaitable<bool> ServeOne(beast::tcp_stream& stream, beast::flat_buffer& buffer,
                           bhttp::request_parser<bhttp::string_body>& parser,
                           const std::string& remote_ip) {
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
    } else if (ec) {
      co_return false;
    } else {
      keep_alive = parser.get().keep_alive() && !stopping;
      request = ToHttpRequest(parser.release(), remote_ip);
      request.correlation_id = RequestPolicy::CorrelationIdFor(request.headers);
      correlation_id = request.correlation_id;
      try {
        response = co_await Dispatch(request);
      } catch (const std::exception& e) {
        spdlog::error("correlation_id={} unhandled error: {}", correlation_id, e.what());
        response = ErrorResponse(500, errc::kInternal, "Internal error.", correlation_id);
      }
    }
    int status = response.status;
    if (response.stream) {
      co_await WriteStream(stream, std::move(response), correlation_id, version);
      if (access_logger) {
        request.correlation_id = correlation_id;
        access_logger(request, status, Millis(started));
      }
      co_return false;  // a streamed body ends with the connection
    }
    auto beast_response = ToBeastResponse(std::move(response), correlation_id, version, keep_alive);
    stream.expires_after(std::chrono::seconds(30));
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

  static constexpr std::chrono::seconds kKeepAlive{15};

  static double Millis(std::chrono::steady_clock::time_point started) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
        .count();
  }

  // A text/event-stream body, chunk by chunk as the producer writes it. The pickup interval
  // grows from 1 ms to 50 ms while nothing arrives and resets on each write.
  awaitable<void> WriteStream(beast::tcp_stream& stream, HttpResponse response,
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
    stream.expires_never();
    co_await bhttp::async_write_header(stream, serializer, asio::redirect_error(use_awaitable, ec));
    asio::steady_timer timer(co_await asio::this_coro::executor);
    auto pause = std::chrono::milliseconds(1);
    auto last_write = std::chrono::steady_clock::now();
    while (!ec) {
      bool closed = false;
      std::vector<std::string> chunks = events->Drain(closed);
      // An idle stream gets a comment every 15 s, so proxies do not cut a long call.
      if (chunks.empty() && std::chrono::steady_clock::now() - last_write > kKeepAlive) {
        chunks.push_back(": keep-alive\n\n");
      }
      if (!chunks.empty()) last_write = std::chrono::steady_clock::now();
      for (const std::string& chunk : chunks) {
        stream.expires_after(std::chrono::seconds(30));
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
  awaitable<void> RefuseAndClose(beast::tcp_stream& stream, int status, const ErrorCode& code,
                                 const std::string& message) {
    std::string correlation_id = RequestPolicy::CorrelationIdFor(HttpHeaders{});
    auto response = ToBeastResponse(ErrorResponse(status, code, message, correlation_id),
                                    correlation_id, 11, false);
    beast::error_code ec;
    stream.expires_after(std::chrono::seconds(5));
    co_await bhttp::async_write(stream, response, asio::redirect_error(use_awaitable, ec));
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    std::array<char, 16384> sink;
    stream.expires_after(std::chrono::seconds(2));
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
    for (;;) {
      beast::error_code ec;
      tcp::socket socket = co_await acceptor.async_accept(asio::redirect_error(use_awaitable, ec));
      if (ec) {
        if (stopping || ec == asio::error::operation_aborted) co_return;
        continue;  // e.g. EMFILE: keep serving the connections we have
      }
      socket.set_option(tcp::no_delay(true), ec);
      asio::co_spawn(io, Session(std::move(socket)), asio::detached);
    }
  }

  // Stop accepting, close idle connections, wait for in-flight requests, then stop.
  awaitable<void> DrainAndStop() {
    beast::error_code ignored;
    acceptor.close(ignored);
    CloseIdle();
    auto deadline = std::chrono::steady_clock::now() + options.shutdown_grace;
    asio::steady_timer timer(io);
    while (in_flight > 0 && std::chrono::steady_clock::now() < deadline) {
      timer.expires_after(std::chrono::milliseconds(20));
      co_await timer.async_wait(asio::redirect_error(use_awaitable, ignored));
      CloseIdle();
    }
    if (in_flight > 0)
      spdlog::warn("shutdown grace elapsed with {} request(s) in flight", in_flight.load());
    io.stop();
  }

  void CloseIdle() {
    std::lock_guard lock(sessions_mutex);
    for (const auto& stream : idle_streams) {
      beast::error_code ignored;
      stream->socket().cancel(ignored);
      stream->socket().close(ignored);
    }
    idle_streams.clear();
  }

  void BeginShutdown() {
    bool expected = false;
    if (!stopping.compare_exchange_strong(expected, true)) return;
    spdlog::info("shutdown: no longer accepting; grace {} s", options.shutdown_grace.count());
    if (options.on_shutdown) options.on_shutdown();
    asio::co_spawn(io, DrainAndStop(), asio::detached);
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
  asio::co_spawn(io, impl_->Accept(), asio::detached);
  std::vector<std::thread> threads;
  for (int i = 1; i < impl_->options.io_threads; ++i) threads.emplace_back([&io] { io.run(); });
  io.run();
  for (auto& thread : threads) thread.join();
}

void HttpServer::Shutdown() {
  asio::post(impl_->io, [this] { impl_->BeginShutdown(); });
}

}  // namespace dp
