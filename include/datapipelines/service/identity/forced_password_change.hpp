#pragma once
// The forced password change (auth.md §5A.4): a session opened with a one-time password
// reaches nothing but the change itself and sign-out until the password is replaced. Applied
// where every request's principal is resolved (RequestAuthenticator), so a route added later
// is held like every other without knowing this exists. API keys are never held: a key is a
// credential its owner made on purpose, not the interactive one being proven.
#include <string_view>

#include "datapipelines/service/identity/principal.hpp"

namespace dp {

// The page that changes the password: where a browser held at the gate is sent.
inline constexpr std::string_view kPasswordChangePage = "/ui/settings/password";

// Whether `path` stays reachable while the change is pending: the change page and its REST
// twin, and signing out.
bool ReachableWhilePasswordChangePending(std::string_view path);

// Throws auth.password.change_required (403) when `principal` is held and `path` is not one
// of the above.
void RequireSettledPassword(const Principal& principal, std::string_view path);

}  // namespace dp
