#include "datapipelines/service/identity/account_rules.hpp"

#include <algorithm>

#include "datapipelines/util/ascii.hpp"

namespace dp {

std::string NormalizeEmail(std::string_view email) {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!email.empty() && is_space(email.front())) email.remove_prefix(1);
  while (!email.empty() && is_space(email.back())) email.remove_suffix(1);
  std::string out(email);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) {
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  });
  return out;
}

bool IsValidEmail(std::string_view email) {
  if (email.size() < 3 || email.size() > 254) return false;
  for (char c : email) {
    auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte == 0x7F) return false;
  }
  auto at = email.find('@');
  if (at == std::string_view::npos || at == 0 ||
      email.find('@', at + 1) != std::string_view::npos) {
    return false;
  }
  std::string_view domain = email.substr(at + 1);
  auto dot = domain.rfind('.');
  return dot != std::string_view::npos && dot > 0 && dot + 1 < domain.size() &&
         domain.find("..") == std::string_view::npos;
}

bool IsValidWorkspaceName(std::string_view name) {
  if (name.empty() || name.size() > 63) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

std::size_t Utf8Length(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

Json FlagsJson(const MemberFlags& given) {
  const MemberFlags flags = given.Normalized();
  return {{"author", flags.author}, {"promoter", flags.promoter}, {"admin", flags.admin}};
}

bool EmailDomainAllowed(const std::vector<std::string>& allowlist, std::string_view email) {
  if (allowlist.empty()) return true;
  const std::string_view domain = email.substr(email.rfind('@') + 1);
  return std::any_of(allowlist.begin(), allowlist.end(), [&](const std::string& allowed) {
    return AsciiEqualsIgnoreCase(allowed, domain);
  });
}

}  // namespace dp
