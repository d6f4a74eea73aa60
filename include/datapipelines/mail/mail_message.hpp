#pragma once
// One notice as an RFC 5322 message: From, To, Reply-To, Subject (RFC 2047-encoded when it is
// not ASCII), Date, Message-ID, MIME-Version, and a multipart/alternative body with a
// text/plain and a text/html part, both UTF-8 and quoted-printable.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/util/mailbox.hpp"

namespace dp {

struct MailMessage {
  Mailbox from{};
  std::vector<std::string> to{};  // bare addresses
  Mailbox reply_to{};             // address empty: no Reply-To header
  std::string subject{};
  std::string text_body{};       // lines end "\n"; rendered CRLF
  std::string html_body{};       // every interpolated value already escaped
  std::string message_id{};      // "<uuid@domain>"
  std::string message_stream{};  // X-PM-Message-Stream when set
  int64_t date_ms = 0;

  // The message with CRLF line ends, ready for the SMTP DATA phase.
  std::string Render() const;
};

// RFC 2047 "=?UTF-8?B?...?=" words when `text` is not printable ASCII, `text` unchanged
// otherwise; an encoded word never splits a UTF-8 sequence.
std::string EncodeHeaderText(std::string_view text);
// "Display Name <address>" (the name quoted or encoded as needed), or the bare address.
std::string FormatMailbox(const Mailbox& mailbox);
// Quoted-printable (RFC 2045 §6.7) of UTF-8 text: CRLF line ends, lines of at most 76 chars.
std::string QuotedPrintable(std::string_view text);
// "Mon, 07 Dec 2026 19:50:00 +0000" (RFC 5322 §3.3), always UTC.
std::string MailDate(int64_t epoch_ms);

}  // namespace dp
