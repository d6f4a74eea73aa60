#pragma once
// A signed-in person's own account (ui-screens §4.14, auth.md §5A): the password change, by the
// one rule REST's POST /api/v1/auth/password also runs (AccountAdministration::ChangeOwnPassword):
// the current password verified first under the sign-in lockout, 12 to 128 characters, the new
// hash replacing the old and settling a one-time password, auth.password.changed audited (never
// the password). Session only: a key never changes a password.
// Refusals: auth.session.required (not a session principal), auth.login.bad_credentials (the
// current password is wrong), auth.login.locked, user.validation.password_too_short / _too_long,
// user.validation.no_local_password (DomainError).
#include <string>

#include "datapipelines/service/identity/principal.hpp"

namespace dp {

class AccountAdministration;

class AccountService {
 public:
  explicit AccountService(AccountAdministration& auth) : auth_(auth) {}

  void ChangePassword(const Principal& principal, const std::string& current_password,
                      const std::string& new_password, std::string_view source_ip);
  // Whether the person has a password here (false: they sign in through a provider only).
  bool HasLocalPassword(const Principal& principal);

 private:
  AccountAdministration& auth_;
};

}  // namespace dp
