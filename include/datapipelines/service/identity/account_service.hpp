#pragma once
// A signed-in person's own account (ui-screens §4.14, auth.md §5A): the password change, by the
// one rule REST's POST /api/v1/auth/password also runs (AccountAdministration::ChangeOwnPassword):
// the current password verified first, at least 12 characters, the new hash replacing the old,
// auth.user.password_changed audited (never the password). Session only: a key never changes a
// password.
// Refusals: auth.session.required (not a session principal), auth.login.invalid_credentials
// (the current password is wrong), user.validation.password_too_short (DomainError).
#include <string>

#include "datapipelines/service/identity/principal.hpp"

namespace dp {

class AccountAdministration;

class AccountService {
 public:
  explicit AccountService(AccountAdministration& auth) : auth_(auth) {}

  void ChangePassword(const Principal& principal, const std::string& current_password,
                      const std::string& new_password);

 private:
  AccountAdministration& auth_;
};

}  // namespace dp
