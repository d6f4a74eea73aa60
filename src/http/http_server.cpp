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

#include <mutex>
#include <thread>

#include "http/connection_admission.hpp"
#include "http/http_session.hpp"
#include "tls_context.hpp"

namespace dp {

using asio::use_awaitable;

// The listener: I/O threads, the accept loop, TLS reload and the graceful drain. Each admitted
// connection is handed to an HttpSession (http_session.hpp) with the shared SessionHost.
struct HttpServer::Impl {
  HttpServerOptions options;
  RequestPolicy policy;
  Router router;
  AccessLogger access_logger;
  // What a session touches as it ends (its admission and registration are given back): declared
  // before `io`, so it outlives the coroutine frames that destroying `io` may still hold.
  std::atomic<bool> stopping{false};
  std::atomic<int> in_flight{0};
  ConnectionAdmission admission{
      ConnectionLimits{options.max_connections, options.max_connections_per_client,
                       options.reserved_probe_connections, options.max_body_bytes_in_flight}};
  ConnectionRegistry connections;
  ClientAddress client_address{options.trusted_proxies};
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
  SessionHost host{options,
                   policy,
                   router,
                   access_logger,
                   admission,
                   connections,
                   blocking,
                   stopping,
                   in_flight,
                   ServesTls() ? std::function<std::shared_ptr<ssl::context>()>(
                                     [this] { return CurrentTlsContext(); })
                               : nullptr,
                   client_address};

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
      const auto admitted = admission.AdmitConnection(remote_ip);
      if (admitted == ConnectionAdmission::Admission::kRefused) {
        asio::co_spawn(executor, HttpSession::Refuse(host, connection),
                       SessionCompletion{connection});
        continue;
      }
      asio::co_spawn(executor, HttpSession::Run(host, connection, std::move(remote_ip), admitted),
                     SessionCompletion{connection});
    }
  }

  // Stop accepting, close idle connections, wait for in-flight requests, then stop.
  awaitable<void> DrainAndStop() {
    beast::error_code ignored;
    acceptor.close(ignored);
    connections.CloseIdle();
    auto deadline = std::chrono::steady_clock::now() + options.shutdown_grace;
    asio::steady_timer timer(control);
    // Until the requests are answered and the closed sessions have ended: a session still
    // suspended when `io` stops would end only when `io` is destroyed.
    while ((in_flight > 0 || connections.Count() > 0) &&
           std::chrono::steady_clock::now() < deadline) {
      timer.expires_after(std::chrono::milliseconds(in_flight > 0 ? 20 : 1));
      co_await timer.async_wait(asio::redirect_error(use_awaitable, ignored));
      connections.CloseIdle();
    }
    if (in_flight > 0)
      spdlog::warn("shutdown grace elapsed with {} request(s) in flight", in_flight.load());
    StopWorkers();
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
