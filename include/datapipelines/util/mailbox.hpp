#pragma once
// A mail address as operators write it in the configuration: a bare address
// (`ops@example.com`) or a display name with the address in angle brackets
// (`Data Team <ops@example.com>`). Checked once at start so nothing that reaches a mail header
// can carry a line break or a second address.
#include <optional>
#include <string>
#include <string_view>

namespace dp {

struct Mailbox {
  std::string display_name{};  // empty for a bare address; surrounding quotes removed
  std::string address{};       // local@domain
};

// nullopt when `text` is neither form, or holds a control character (CR, LF, ...).
std::optional<Mailbox> ParseMailbox(std::string_view text);
// local@domain with printable ASCII only, no spaces, brackets, quotes or commas.
bool IsMailAddress(std::string_view address);
// The part after the last '@' (empty when there is none): what a log line may name.
std::string_view MailDomain(std::string_view address);

}  // namespace dp
