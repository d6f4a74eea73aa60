#pragma once
// A signed-in person's own account (ui-screens §4.14, auth.md §5A): the password change. The
// current password is verified first (Argon2id, the stored hash), the new one follows the same
// rule as user creation (at least 12 characters), the new hash replaces the old, and
// auth.password.changed is audited (never the password). Session only: a key never changes a
// password.
// Refusals: auth.session.invalid (not a session principal), auth.login.invalid_credentials (the
// current password is wrong), user.validation.password_too_short (DomainError).
#include <string>

#include "datapipelines/auth/principal.hpp"

namespace dp {

class AuditLog;
class AuthService;
class MetadataStore;

class AccountService {
 public:
  AccountService(MetadataStore& store, AuthService& auth, AuditLog& audit)
      : store_(store), auth_(auth), audit_(audit) {}

  void ChangePassword(const Principal& principal, const std::string& current_password,
                      const std::string& new_password);

 private:
  MetadataStore& store_;
  AuthService& auth_;
  AuditLog& audit_;
};

}  // namespace dp
