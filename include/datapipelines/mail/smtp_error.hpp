#pragma once
// Why a message did not reach the SMTP server: the server's reply (its code and text) or the
// transport's failure (code 0: no connection, no STARTTLS, a certificate refused, the
// deadline). The text is safe to show an administrator: it never holds the message body or
// the SMTP password.
#include <stdexcept>
#include <string>

namespace dp {

class SmtpError : public std::runtime_error {
 public:
  SmtpError(int reply_code, const std::string& message)
      : std::runtime_error(message), reply_code_(reply_code) {}
  // The server's three-digit reply code, or 0 when the failure was not a reply.
  int reply_code() const { return reply_code_; }

 private:
  int reply_code_;
};

}  // namespace dp
