#pragma once
// A small blocking SMTP submission client (RFC 5321, 6409): connect, EHLO, STARTTLS (required
// when asked for: a server that does not offer it is refused, never used in plaintext), the
// certificate and host name verified against the system's trusted CAs (SSL_CERT_FILE and
// SSL_CERT_DIR apply), AUTH PLAIN or LOGIN when a user is set, MAIL FROM, RCPT TO per
// recipient, DATA, QUIT. One deadline bounds the whole exchange. Called from the blocking pool.
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/mail/smtp_error.hpp"

namespace dp {

struct SmtpSettings {
  std::string host{};
  int port = 587;
  std::string username{};
  std::string password{};
  bool starttls = true;
  std::string helo_name = "localhost";  // the name this client greets with
  std::chrono::milliseconds timeout{30000};
};

struct SmtpEnvelope {
  std::string from{};                     // the bare sender address
  std::vector<std::string> recipients{};  // bare addresses
  std::string message{};                  // the RFC 5322 message
};

class SmtpClient {
 public:
  explicit SmtpClient(SmtpSettings settings);
  // Throws SmtpError when the server refuses any step or the transport fails.
  void Send(const SmtpEnvelope& envelope) const;
  // The message as the DATA phase carries it: every line ending CRLF, a line that starts with
  // '.' doubled (RFC 5321 §4.5.2), and the closing "." line.
  static std::string DataPayload(std::string_view message);

 private:
  SmtpSettings settings_;
};

}  // namespace dp
