#pragma once
// One connection's session, shaped like Boost.Beast's advanced server examples: the server
// accepts and admits a connection, then an HttpSession owns it until it closes. What every
// session of one server shares (options, the edge policy, the router, admission, the pool
// blocking handlers run on) is handed to it as one SessionHost, never as hidden global state.
#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "datapipelines/domain/error_code.hpp"
#include "datapipelines/http/http_server.hpp"
#include "datapipelines/http/request_policy.hpp"
#include "datapipelines/http/router.hpp"
#include "http/client_address.hpp"
#include "http/connection_admission.hpp"

namespace dp {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace ssl = asio::ssl;
using asio::awaitable;
using tcp = asio::ip::tcp;

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
  void operator()(const std::exception_ptr& error) const;
};

// Every open connection, registered once per connection (not per request): shutdown posts
// a close onto each one's I/O thread, which closes it there only if it is idle — there the
// session's idle flag cannot change under it, and a busy session sees `stopping` before it
// reads its next request.
class ConnectionRegistry {
 public:
  void Add(const std::shared_ptr<Connection>& connection);
  void Remove(const std::shared_ptr<Connection>& connection);
  std::size_t Count();
  void CloseIdle();

 private:
  std::mutex mutex_;
  std::set<std::shared_ptr<Connection>> open_;
};

// What the sessions of one server share; it outlives every session.
struct SessionHost {
  const HttpServerOptions& options;
  const RequestPolicy& policy;
  const Router& router;
  const AccessLogger& access_logger;
  ConnectionAdmission& admission;
  ConnectionRegistry& connections;
  asio::thread_pool& blocking;  // where blocking handlers and header admission run
  const std::atomic<bool>& stopping;
  std::atomic<int>& in_flight;  // requests being served, for the shutdown's drain
  std::function<std::shared_ptr<ssl::context>()> current_tls;  // empty: plain HTTP
  const ClientAddress& client_address;  // the request's remote_ip behind trusted proxies
};

class HttpSession {
 public:
  // Serves an admitted connection until it closes; the session registers the connection for
  // the shutdown's drain and gives its admission back when it ends.
  static awaitable<void> Run(SessionHost& host, std::shared_ptr<Connection> connection,
                             std::string remote_ip, ConnectionAdmission::Admission admitted);
  // The polite refusal of a connection over a cap: a fixed 503, then close.
  static awaitable<void> Refuse(SessionHost& host, std::shared_ptr<Connection> connection);

  HttpSession(const HttpSession&) = delete;
  HttpSession& operator=(const HttpSession&) = delete;
  ~HttpSession();

 private:
  HttpSession(SessionHost& host, std::shared_ptr<Connection> connection, std::string remote_ip,
              ConnectionAdmission::Admission admitted);
  // A connection from the probes' reserve serves one request to a probe path, nothing else.
  bool probe_only() const { return admitted_ == ConnectionAdmission::Admission::kProbeOnly; }
  bool IsProbeTarget(std::string_view target) const;

  awaitable<void> Start();
  template <typename Stream>
  awaitable<void> Serve(Stream& wire, beast::flat_buffer& buffer);
  template <typename Stream>
  awaitable<bool> ServeOne(Stream& stream, beast::flat_buffer& buffer,
                           bhttp::request_parser<bhttp::string_body>& parser,
                           std::optional<HttpRequest> head);
  awaitable<HttpResponse> Dispatch(HttpRequest& request);
  template <typename Stream>
  awaitable<void> WriteStream(Stream& stream, HttpResponse response,
                              const std::string& correlation_id, unsigned version);
  template <typename Stream>
  awaitable<void> RefuseAndClose(Stream& stream, int status, const ErrorCode& code,
                                 const std::string& message);
  template <typename Stream>
  awaitable<void> RespondAndClose(Stream& stream, HttpResponse refusal,
                                  const std::string& correlation_id);
  int64_t BodyLimitFor(std::string_view target) const;
  std::string BodyTooLargeMessage() const;

  SessionHost& host_;
  std::shared_ptr<Connection> connection_;
  std::string remote_ip_;
  ConnectionAdmission::Admission admitted_;
};

}  // namespace dp
