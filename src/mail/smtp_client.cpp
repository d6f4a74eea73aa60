#include "datapipelines/mail/smtp_client.hpp"

#include <openssl/ssl.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include <memory>
#include <optional>

#include "datapipelines/util/ascii.hpp"
#include "datapipelines/util/crypto.hpp"
#include "datapipelines/util/socket_deadline.hpp"

namespace dp {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using ErrorCode = boost::system::error_code;

namespace {

constexpr std::size_t kMaxReplyBytes = 64 * 1024;  // a server's reply; more is not one
constexpr int kMaxReplyLines = 100;
constexpr std::size_t kMaxReplyTextInError = 300;
constexpr auto kMaxConnectTime = std::chrono::seconds(10);

struct SmtpReply {
  int code = 0;
  std::vector<std::string> lines;  // the text of each line, code and separator removed

  std::string Text() const {
    std::string text;
    for (const auto& line : lines) text += (text.empty() ? "" : " ") + line;
    return text.size() > kMaxReplyTextInError ? text.substr(0, kMaxReplyTextInError) + "..." : text;
  }
  // The EHLO keyword line (after the greeting line), e.g. "AUTH PLAIN LOGIN"; nullopt if absent.
  std::optional<std::string> Extension(std::string_view keyword) const {
    for (std::size_t i = 1; i < lines.size(); ++i) {
      const std::string upper = AsciiLower(lines[i]);
      const std::string wanted = AsciiLower(keyword);
      if (upper == wanted || upper.rfind(wanted + " ", 0) == 0) return upper;
    }
    return std::nullopt;
  }
};

// One SMTP conversation over one connection: plain until STARTTLS, then TLS.
class SmtpConversation {
 public:
  SmtpConversation(const SmtpSettings& settings, std::chrono::steady_clock::time_point deadline)
      : settings_(settings), deadline_(deadline), socket_(io_), buffer_(kMaxReplyBytes) {}

  void Connect() {
    ErrorCode ec;
    tcp::resolver resolver(io_);
    auto endpoints = resolver.resolve(settings_.host, std::to_string(settings_.port), ec);
    if (ec) throw Failure("resolving", ec);
    ErrorCode connected = asio::error::would_block;
    asio::async_connect(
        socket_, endpoints,
        [&connected](const ErrorCode& error, const tcp::endpoint&) { connected = error; });
    io_.run_for(std::min<std::chrono::steady_clock::duration>(Remaining(), kMaxConnectTime));
    if (connected == asio::error::would_block) {
      socket_.close(ec);
      io_.run();  // the cancelled connect's handler
      throw SmtpError(0, "connecting to " + Where() + " timed out");
    }
    if (connected) throw Failure("connecting to", connected);
    // Asio's synchronous reads ignore SO_RCVTIMEO: a watchdog bounds the rest of the exchange.
    watchdog_.emplace(socket_.native_handle(),
                      std::chrono::duration_cast<std::chrono::milliseconds>(Remaining()));
  }

  SmtpReply Expect(int expected_class, std::string_view step) {
    SmtpReply reply = ReadReply();
    if (reply.code / 100 != expected_class) {
      throw SmtpError(reply.code, "the SMTP server refused " + std::string(step) + ": " +
                                      std::to_string(reply.code) + " " + reply.Text());
    }
    return reply;
  }

  // Sends one command line. `step` names it in an error: the line itself may carry a credential.
  SmtpReply Command(const std::string& line, int expected_class, std::string_view step) {
    Write(line + "\r\n");
    return Expect(expected_class, step);
  }

  void StartTls() {
    Command("STARTTLS", 2, "STARTTLS");
    // Bytes the server sent before the handshake would be read as if they came over TLS.
    if (buffer_.size() != 0) throw SmtpError(0, "the SMTP server sent data ahead of STARTTLS");
    ErrorCode ec;
    context_ = std::make_unique<ssl::context>(ssl::context::tls_client);
    context_->set_options(ssl::context::no_sslv2 | ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                          ssl::context::no_tlsv1_1);
    context_->set_default_verify_paths(ec);
    if (ec) throw SmtpError(0, "cannot load the trusted CA certificates: " + ec.message());
    context_->set_verify_mode(ssl::verify_peer);
    tls_ = std::make_unique<ssl::stream<tcp::socket&>>(socket_, *context_);
    SSL_set_tlsext_host_name(tls_->native_handle(), settings_.host.c_str());
    tls_->set_verify_callback(ssl::host_name_verification(settings_.host));
    tls_->handshake(ssl::stream_base::client, ec);
    if (ec) throw Failure("the TLS handshake with", ec);
  }

  void Write(std::string_view bytes) {
    ErrorCode ec;
    if (tls_) {
      asio::write(*tls_, asio::buffer(bytes.data(), bytes.size()), ec);
    } else {
      asio::write(socket_, asio::buffer(bytes.data(), bytes.size()), ec);
    }
    if (ec) throw Failure("sending to", ec);
  }

  // QUIT is a courtesy: the message was accepted before it.
  void Quit() noexcept {
    try {
      Command("QUIT", 2, "QUIT");
    } catch (...) {
    }
    ErrorCode ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
  }

 private:
  SmtpReply ReadReply() {
    SmtpReply reply;
    for (int i = 0; i < kMaxReplyLines; ++i) {
      const std::string line = ReadLine();
      if (line.size() < 3 || !AsciiAllDigits(line.substr(0, 3)) ||
          (line.size() > 3 && line[3] != ' ' && line[3] != '-')) {
        throw SmtpError(0, "the SMTP server at " + Where() + " sent a malformed reply");
      }
      reply.code = std::stoi(line.substr(0, 3));
      reply.lines.push_back(line.size() > 4 ? line.substr(4) : "");
      if (line.size() == 3 || line[3] == ' ') return reply;
    }
    throw SmtpError(0, "the SMTP server at " + Where() + " sent an endless reply");
  }

  std::string ReadLine() {
    ErrorCode ec;
    const std::size_t length = tls_ ? asio::read_until(*tls_, buffer_, "\r\n", ec)
                                    : asio::read_until(socket_, buffer_, "\r\n", ec);
    if (ec) throw Failure("reading the reply of", ec);
    auto begin = asio::buffers_begin(buffer_.data());
    std::string line(begin, begin + static_cast<std::ptrdiff_t>(length - 2));
    buffer_.consume(length);
    return line;
  }

  SmtpError Failure(std::string_view what, const ErrorCode& error) const {
    if (watchdog_ && watchdog_->Expired()) {
      return SmtpError(0, "the SMTP exchange with " + Where() + " timed out after " +
                              std::to_string(settings_.timeout.count() / 1000) + " s");
    }
    return SmtpError(0, std::string(what) + " " + Where() + " failed: " + error.message());
  }

  std::string Where() const { return settings_.host + ":" + std::to_string(settings_.port); }

  std::chrono::steady_clock::duration Remaining() const {
    return std::max<std::chrono::steady_clock::duration>(
        deadline_ - std::chrono::steady_clock::now(), std::chrono::milliseconds(1));
  }

  const SmtpSettings& settings_;
  const std::chrono::steady_clock::time_point deadline_;
  asio::io_context io_;
  tcp::socket socket_;
  asio::streambuf buffer_;
  std::unique_ptr<ssl::context> context_;
  std::unique_ptr<ssl::stream<tcp::socket&>> tls_;
  std::optional<SocketDeadline> watchdog_;  // declared last: stopped before the socket closes
};

// AUTH PLAIN when offered (one round trip), else LOGIN.
void Authenticate(SmtpConversation& smtp, const SmtpReply& ehlo, const SmtpSettings& settings) {
  const std::string mechanisms = ehlo.Extension("AUTH").value_or("");
  if (mechanisms.find(" plain") != std::string::npos) {
    smtp.Command("AUTH PLAIN " + Base64Encode(std::string(1, '\0') + settings.username + '\0' +
                                              settings.password),
                 2, "AUTH PLAIN");
    return;
  }
  if (mechanisms.find(" login") != std::string::npos) {
    smtp.Command("AUTH LOGIN", 3, "AUTH LOGIN");
    smtp.Command(Base64Encode(settings.username), 3, "AUTH LOGIN");
    smtp.Command(Base64Encode(settings.password), 2, "AUTH LOGIN");
    return;
  }
  throw SmtpError(0,
                  "the SMTP server offers neither AUTH PLAIN nor AUTH LOGIN, and "
                  "datapipelines.mail.username is set");
}

}  // namespace

SmtpClient::SmtpClient(SmtpSettings settings) : settings_(std::move(settings)) {}

void SmtpClient::Send(const SmtpEnvelope& envelope) const {
  SmtpConversation smtp(settings_, std::chrono::steady_clock::now() + settings_.timeout);
  smtp.Connect();
  smtp.Expect(2, "the connection");
  SmtpReply ehlo = smtp.Command("EHLO " + settings_.helo_name, 2, "EHLO");
  if (settings_.starttls) {
    if (!ehlo.Extension("STARTTLS")) {
      throw SmtpError(0, "the SMTP server at " + settings_.host + ":" +
                             std::to_string(settings_.port) +
                             " does not offer STARTTLS, which datapipelines.mail.starttls "
                             "requires");
    }
    smtp.StartTls();
    ehlo = smtp.Command("EHLO " + settings_.helo_name, 2, "EHLO");
  }
  if (!settings_.username.empty()) Authenticate(smtp, ehlo, settings_);
  smtp.Command("MAIL FROM:<" + envelope.from + ">", 2, "the sender");
  for (const std::string& recipient : envelope.recipients) {
    smtp.Command("RCPT TO:<" + recipient + ">", 2, "the recipient " + recipient);
  }
  smtp.Command("DATA", 3, "DATA");
  smtp.Write(DataPayload(envelope.message));
  smtp.Expect(2, "the message");
  smtp.Quit();
}

std::string SmtpClient::DataPayload(std::string_view message) {
  std::string out;
  out.reserve(message.size() + message.size() / 64 + 8);
  bool line_start = true;
  for (std::size_t i = 0; i < message.size(); ++i) {
    const char c = message[i];
    if (line_start && c == '.') out.push_back('.');
    if (c == '\r' || c == '\n') {
      out += "\r\n";
      if (c == '\r' && i + 1 < message.size() && message[i + 1] == '\n') ++i;
      line_start = true;
      continue;
    }
    out.push_back(c);
    line_start = false;
  }
  if (!line_start) out += "\r\n";
  out += ".\r\n";
  return out;
}

}  // namespace dp
