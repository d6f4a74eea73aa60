#pragma once
// What the operators are told when an account is created (auth.md §5A.8): by an administrator
// (a local account) or by a first sign-in through an OpenID provider. Never a password.
#include <cstdint>
#include <string>

namespace dp {

struct NewUserNotice {
  std::string user_id{};  // the new account's id: the notice goes once per account, ever
  std::string email{};
  std::string display_name{};  // may be empty
  std::string provider{};      // "local" or the OpenID provider's registration name
  std::string created_by{};    // the administrator's e-mail, or "self-service via <provider>"
  std::string workspace{};     // where the account landed; may be empty
  int64_t created_at_ms = 0;
};

}  // namespace dp
