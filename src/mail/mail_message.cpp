#include "datapipelines/mail/mail_message.hpp"

#include <algorithm>
#include <ctime>

#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

constexpr std::size_t kQuotedPrintableLine = 76;
// An encoded word is at most 75 characters: "=?UTF-8?B?" + base64 of 45 bytes + "?=".
constexpr std::size_t kEncodedWordBytes = 45;

bool IsPrintableAscii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && byte < 0x7f;
  });
}

// The length of the UTF-8 sequence starting with `lead` (1 for a stray continuation byte).
std::size_t Utf8SequenceLength(unsigned char lead) {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc0) return 2;
  return 1;
}

void AppendHeader(std::string& out, std::string_view name, std::string_view value) {
  out.append(name).append(": ").append(value).append("\r\n");
}

std::string JoinAddresses(const std::vector<std::string>& addresses) {
  std::string joined;
  for (const auto& address : addresses) joined += (joined.empty() ? "" : ", ") + address;
  return joined;
}

void AppendPart(std::string& out, std::string_view boundary, std::string_view content_type,
                std::string_view body) {
  out.append("--").append(boundary).append("\r\n");
  AppendHeader(out, "Content-Type", std::string(content_type) + "; charset=UTF-8");
  AppendHeader(out, "Content-Transfer-Encoding", "quoted-printable");
  out.append("\r\n").append(QuotedPrintable(body)).append("\r\n");
}

}  // namespace

std::string EncodeHeaderText(std::string_view text) {
  if (IsPrintableAscii(text)) return std::string(text);
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = start;
    while (end < text.size()) {
      const std::size_t next = end + Utf8SequenceLength(static_cast<unsigned char>(text[end]));
      if (next - start > kEncodedWordBytes) break;
      end = std::min(next, text.size());
    }
    if (end == start) end = std::min(start + kEncodedWordBytes, text.size());
    if (!out.empty()) out += "\r\n ";  // folded: one encoded word per line
    out += "=?UTF-8?B?" + Base64Encode(text.substr(start, end - start)) + "?=";
    start = end;
  }
  return out;
}

std::string FormatMailbox(const Mailbox& mailbox) {
  if (mailbox.display_name.empty()) return mailbox.address;
  const std::string& name = mailbox.display_name;
  std::string shown;
  if (!IsPrintableAscii(name)) {
    shown = EncodeHeaderText(name);
  } else if (name.find_first_of("()<>[]:;@\\,.\"") != std::string::npos) {
    shown = "\"" + name + "\"";  // ParseMailbox admits no quote or backslash inside
  } else {
    shown = name;
  }
  return shown + " <" + mailbox.address + ">";
}

std::string QuotedPrintable(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  std::string line;
  auto flush_line = [&](bool hard_break) {
    // Whitespace at the end of a line would be dropped in transit: it is encoded.
    if (hard_break && !line.empty() && (line.back() == ' ' || line.back() == '\t')) {
      const char last = line.back();
      line.pop_back();
      line += last == ' ' ? "=20" : "=09";
    }
    out += line;
    out += hard_break ? "\r\n" : "=\r\n";
    line.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '\n' || byte == '\r') {
      if (byte == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      flush_line(true);
      continue;
    }
    std::string piece;
    if ((byte >= 33 && byte <= 126 && byte != '=') || byte == ' ' || byte == '\t') {
      piece.assign(1, static_cast<char>(byte));
    } else {
      piece = {'=', kHex[byte >> 4], kHex[byte & 0x0f]};
    }
    // A '.' first on a line is left to the SMTP client's dot-stuffing; the soft break keeps
    // every line within 76 characters, the '=' counted.
    if (line.size() + piece.size() > kQuotedPrintableLine - 1) flush_line(false);
    line += piece;
  }
  if (!line.empty()) {
    flush_line(true);
    out.resize(out.size() - 2);  // no line break the text did not have
  }
  return out;
}

std::string MailDate(int64_t epoch_ms) {
  const std::time_t seconds = static_cast<std::time_t>(epoch_ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char text[40];
  std::snprintf(text, sizeof text, "%s, %02d %s %04d %02d:%02d:%02d +0000", kDays[utc.tm_wday],
                utc.tm_mday, kMonths[utc.tm_mon], utc.tm_year + 1900, utc.tm_hour, utc.tm_min,
                utc.tm_sec);
  return text;
}

std::string MailMessage::Render() const {
  // Quoted-printable bodies never hold "=_", so the boundary cannot occur inside a part.
  const std::string boundary = "=_dp_" + Sha256Hex(message_id).substr(0, 24);
  std::string out;
  AppendHeader(out, "From", FormatMailbox(from));
  AppendHeader(out, "To", JoinAddresses(to));
  if (!reply_to.address.empty()) AppendHeader(out, "Reply-To", FormatMailbox(reply_to));
  AppendHeader(out, "Subject", EncodeHeaderText(subject));
  AppendHeader(out, "Date", MailDate(date_ms));
  AppendHeader(out, "Message-ID", message_id);
  AppendHeader(out, "MIME-Version", "1.0");
  if (!message_stream.empty()) AppendHeader(out, "X-PM-Message-Stream", message_stream);
  AppendHeader(out, "Content-Type", "multipart/alternative; boundary=\"" + boundary + "\"");
  out += "\r\n";
  AppendPart(out, boundary, "text/plain", text_body);
  AppendPart(out, boundary, "text/html", html_body);
  out.append("--").append(boundary).append("--\r\n");
  return out;
}

}  // namespace dp
