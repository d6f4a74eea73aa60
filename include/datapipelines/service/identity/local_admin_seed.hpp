#pragma once
// The first admin's one-time password from configuration (auth.md §5A.2): the one account
// configuration may give a password, because on a fresh local-accounts server nobody exists yet
// to create the first. Create-if-absent and once only: a restart never resets a changed
// password, and changing datapipelines.auth.bootstrap-admin-email later creates no second
// admin — it is reported instead. The seeded password is always one-time.
#include <string>

#include "datapipelines/service/identity/auth_records.hpp"

namespace dp {

struct LocalAdminSeed {
  std::string email;          // datapipelines.auth.bootstrap-admin-email
  std::string password;       // the plaintext form, or
  std::string password_hash;  // the Argon2id form
};

enum class LocalAdminSeedOutcome {
  kSeeded,         // the account was created with the one-time password
  kPending,        // it exists and its one-time password is still unchanged
  kSettled,        // it exists and its password has been changed (or it never had one)
  kEmailMismatch,  // a different address was seeded before: nothing was done
};

struct LocalAdminSeedResult {
  LocalAdminSeedOutcome outcome = LocalAdminSeedOutcome::kSettled;
  std::string seeded_email;  // kEmailMismatch: the address that was seeded
};

// Blocks on the store (and Argon2 for the plaintext form). Writes auth.user.created,
// auth.user.admin_granted and auth.password.seeded when it seeds; never the password.
LocalAdminSeedResult SeedLocalAdmin(const AuthRecords& records, const LocalAdminSeed& seed);

}  // namespace dp
