#include "datapipelines/service/identity/forced_password_change.hpp"

#include <array>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {

bool ReachableWhilePasswordChangePending(std::string_view path) {
  static constexpr std::array<std::string_view, 4> kReachable = {
      kPasswordChangePage, "/ui/logout", "/api/v1/auth/password", "/api/v1/auth/logout"};
  for (std::string_view reachable : kReachable) {
    if (path == reachable) return true;
  }
  return false;
}

void RequireSettledPassword(const Principal& principal, std::string_view path) {
  if (!principal.via_session || !principal.password_change_required) return;
  if (ReachableWhilePasswordChangePending(path)) return;
  throw DomainError(errc::kPasswordChangeRequired,
                    "Your password is a one-time password: choose your own before anything "
                    "else.",
                    Json{{"change_at", std::string(kPasswordChangePage)}});
}

}  // namespace dp
