#include "datapipelines/http/http_client.hpp"

#include <openssl/ssl.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <array>
#include <limits>
#include <stdexcept>

#include "datapipelines/util/socket_deadline.hpp"

namespace dp {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

HttpUrl HttpUrl::Parse(std::string_view url) {
  HttpUrl parsed;
  std::string_view rest;
  if (url.starts_with("http://")) {
    rest = url.substr(7);
  } else if (url.starts_with("https://")) {
    rest = url.substr(8);
    parsed.tls = true;
  } else {
    throw std::invalid_argument("the server URL must start with http:// or https://");
  }
  std::size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  parsed.path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (authority.find('@') != std::string_view::npos) {
    throw std::invalid_argument("the server URL must not carry credentials; use --key-env");
  }
  std::size_t colon = authority.rfind(':');
  bool bracketed = authority.starts_with('[');
  if (colon != std::string_view::npos && (!bracketed || authority[colon - 1] == ']')) {
    parsed.host = std::string(authority.substr(0, colon));
    parsed.port = std::string(authority.substr(colon + 1));
  } else {
    parsed.host = std::string(authority);
    parsed.port = parsed.tls ? "443" : "80";
  }
  if (bracketed && parsed.host.size() > 2) {
    parsed.host = parsed.host.substr(1, parsed.host.size() - 2);
  }
  if (parsed.host.empty()) throw std::invalid_argument("the server URL has no host");
  if (parsed.port.empty() || parsed.port.size() > 5 ||
      parsed.port.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument("the server URL's port is not a number");
  }
  return parsed;
}

namespace {

using OnHead = std::function<void(int, const HttpHeaders&)>;
using OnBody = std::function<void(std::string_view)>;
using Failure = std::function<std::runtime_error(std::string_view, const beast::error_code&)>;

// One request and its streamed answer over a connected stream (plain or TLS).
template <typename Stream>
void Exchange(Stream& stream, bhttp::request<bhttp::string_body>& out, const OnHead& on_head,
              const OnBody& on_body, const Failure& failure) {
  beast::error_code ec;
  bhttp::write(stream, out, ec);
  if (ec) throw failure("sending to", ec);
  beast::flat_buffer buffer;
  bhttp::response_parser<bhttp::buffer_body> parser;
  // No limit (a long SSE answer), spelled as a number: Beast 1.74 compares `len > none` as
  // true and would refuse every body.
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  bhttp::read_header(stream, buffer, parser, ec);
  if (ec) throw failure("reading the answer of", ec);
  HttpHeaders headers;
  for (const auto& field : parser.get()) {
    headers.Add(std::string(field.name_string()), std::string(field.value()));
  }
  on_head(static_cast<int>(parser.get().result_int()), headers);
  // read_some hands each piece on as it arrives, so an SSE answer streams.
  std::array<char, 16384> piece;
  while (!parser.is_done()) {
    parser.get().body().data = piece.data();
    parser.get().body().size = piece.size();
    bhttp::read_some(stream, buffer, parser, ec);
    if (ec == bhttp::error::need_buffer) ec = {};
    if (ec) throw failure("reading the answer of", ec);
    std::size_t filled = piece.size() - parser.get().body().size;
    if (filled > 0) on_body(std::string_view(piece.data(), filled));
  }
}

}  // namespace

HttpClient::HttpClient(HttpUrl origin, std::string ca_file, std::chrono::seconds connect_timeout,
                       std::chrono::seconds io_timeout)
    : origin_(std::move(origin)),
      ca_file_(std::move(ca_file)),
      connect_timeout_(connect_timeout),
      io_timeout_(io_timeout) {}

void HttpClient::Send(const HttpClientRequest& request, const OnHead& on_head,
                      const OnBody& on_body) const {
  Failure failure = [this](std::string_view what, const beast::error_code& error) {
    return std::runtime_error(std::string(what) + " " + origin_.host + ":" + origin_.port +
                              " failed: " + error.message());
  };
  bhttp::request<bhttp::string_body> out{bhttp::string_to_verb(request.method), request.target, 11};
  out.set(bhttp::field::host, origin_.host + ":" + origin_.port);
  out.set(bhttp::field::user_agent, "datapipelines-stdio-bridge");
  for (const auto& [name, value] : request.headers) out.set(name, value);
  out.body() = request.body;
  out.keep_alive(false);
  out.prepare_payload();

  asio::io_context io;
  beast::error_code ec;
  tcp::resolver resolver(io);
  auto endpoints = resolver.resolve(origin_.host, origin_.port, ec);
  if (ec) throw failure("resolving", ec);
  if (!origin_.tls) {
    beast::tcp_stream stream(io);
    stream.expires_after(connect_timeout_);
    stream.connect(endpoints, ec);
    if (ec) throw failure("connecting to", ec);
    stream.expires_never();
    // Asio's synchronous reads ignore SO_RCVTIMEO: a watchdog bounds the whole exchange.
    SocketDeadline deadline(stream.socket().native_handle(), io_timeout_);
    Exchange(stream, out, on_head, on_body, failure);
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
    return;
  }
  ssl::context context(ssl::context::tls_client);
  context.set_options(ssl::context::no_sslv2 | ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                      ssl::context::no_tlsv1_1);
  if (ca_file_.empty()) {
    context.set_default_verify_paths(ec);
  } else {
    context.load_verify_file(ca_file_, ec);
  }
  if (ec) throw std::runtime_error("cannot load the CA certificates: " + ec.message());
  context.set_verify_mode(ssl::verify_peer);
  beast::ssl_stream<beast::tcp_stream> stream(io, context);
  SSL_set_tlsext_host_name(stream.native_handle(), origin_.host.c_str());
  stream.set_verify_callback(ssl::host_name_verification(origin_.host));
  beast::get_lowest_layer(stream).expires_after(connect_timeout_);
  beast::get_lowest_layer(stream).connect(endpoints, ec);
  if (ec) throw failure("connecting to", ec);
  SocketDeadline deadline(beast::get_lowest_layer(stream).socket().native_handle(), io_timeout_);
  stream.handshake(ssl::stream_base::client, ec);
  if (ec) throw failure("the TLS handshake with", ec);
  beast::get_lowest_layer(stream).expires_never();
  Exchange(stream, out, on_head, on_body, failure);
  stream.shutdown(ec);  // a peer that just closes is fine: the answer is complete
}

HttpFetch MakeHttpFetch(std::size_t max_body_bytes, std::chrono::seconds io_timeout) {
  return [max_body_bytes, io_timeout](const HttpFetchRequest& request) {
    const HttpUrl url = HttpUrl::Parse(request.url);
    HttpClientRequest out;
    out.method = request.method;
    out.target = url.path;
    out.headers = request.headers;
    out.headers.emplace_back("User-Agent", "datapipelines");
    out.body = request.body;
    HttpFetchResponse response;
    HttpClient(url, "", std::chrono::seconds(10), io_timeout)
        .Send(
            out,
            [&](int status, const HttpHeaders& headers) {
              response.status = status;
              response.headers = headers;
            },
            [&](std::string_view piece) {
              if (response.body.size() + piece.size() > max_body_bytes) {
                throw std::runtime_error("the answer of " + url.host + " exceeds " +
                                         std::to_string(max_body_bytes) + " bytes");
              }
              response.body.append(piece);
            });
    return response;
  };
}

}  // namespace dp
