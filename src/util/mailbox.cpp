#include "datapipelines/util/mailbox.hpp"

#include <algorithm>

namespace dp {
namespace {

std::string_view TrimMailboxSpace(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

bool HasControlCharacter(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
}

}  // namespace

bool IsMailAddress(std::string_view address) {
  const auto at = address.rfind('@');
  if (at == std::string_view::npos || at == 0 || at + 1 == address.size()) return false;
  if (address.size() > 254) return false;
  return std::all_of(address.begin(), address.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte > 0x20 && byte < 0x7f && c != '<' && c != '>' && c != '"' && c != ',' && c != '(' &&
           c != ')' && c != ';' && c != '\\' && c != '[' && c != ']';
  });
}

std::optional<Mailbox> ParseMailbox(std::string_view text) {
  if (HasControlCharacter(text)) return std::nullopt;
  const std::string_view trimmed = TrimMailboxSpace(text);
  if (!trimmed.ends_with('>')) {
    if (!IsMailAddress(trimmed)) return std::nullopt;
    return Mailbox{"", std::string(trimmed)};
  }
  const auto open = trimmed.rfind('<');
  if (open == std::string_view::npos) return std::nullopt;
  const std::string_view address = trimmed.substr(open + 1, trimmed.size() - open - 2);
  std::string_view name = TrimMailboxSpace(trimmed.substr(0, open));
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
    name = name.substr(1, name.size() - 2);
  }
  if (!IsMailAddress(address) || name.find_first_of("<>\"") != std::string_view::npos) {
    return std::nullopt;
  }
  return Mailbox{std::string(name), std::string(address)};
}

std::string_view MailDomain(std::string_view address) {
  const auto at = address.rfind('@');
  return at == std::string_view::npos ? std::string_view() : address.substr(at + 1);
}

}  // namespace dp
