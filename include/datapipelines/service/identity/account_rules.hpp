#pragma once
// Validation rules for operator-created accounts and workspaces (workspaces design §4).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/domain/access.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

inline constexpr std::size_t kMinPasswordChars = 12;
// The longest password accepted: bounds the Argon2 input a caller can make us hash.
inline constexpr std::size_t kMaxPasswordChars = 128;
inline constexpr std::size_t kMaxKeyNameChars = 100;

// Trimmed and lower-cased: emails are case-insensitive identities.
std::string NormalizeEmail(std::string_view email);
// A pragmatic shape check (local@domain.tld, no spaces or control characters, ≤ 254).
bool IsValidEmail(std::string_view normalized_email);
// [a-z0-9_-]{1,63}
bool IsValidWorkspaceName(std::string_view name);
// Whether the e-mail's domain may sign in through a provider (auth.md §4.3): any when the
// allowlist is empty, else one of its domains, compared without case.
bool EmailDomainAllowed(const std::vector<std::string>& allowlist, std::string_view email);
// Counts UTF-8 code points, not bytes.
std::size_t Utf8Length(std::string_view text);
// {"author": …, "promoter": …, "admin": …}, normalised (an admin authors): the wire and audit
// shape of a membership's flags.
Json FlagsJson(const MemberFlags& flags);

}  // namespace dp
