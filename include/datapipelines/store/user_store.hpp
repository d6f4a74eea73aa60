#pragma once
// The user port (metadata-db §4.1): accounts, their password hash, active flag and the
// provider they sign in through. Every call
// blocks: services run them on the blocking pool, never on an I/O thread.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dp {

class SqlExecutor;

struct User {
  std::string id;
  std::string email;
  std::string display_name;
  std::string password_hash;  // Argon2id encoded hash; empty = no local password
  bool is_active = true;
  bool is_super_admin = false;
  int64_t created_at_ms = 0;
  // Where the person last signed in from: "local", "bootstrap" or an OIDC provider's name,
  // with that provider's subject and picture (auth.md §4.1).
  std::string provider = "local";
  std::string provider_subject{};
  std::string profile_picture_url{};
  int64_t last_login_at_ms = 0;  // 0: never
  // The password is one-time (seeded, or set by an admin): a session it opens must replace it
  // before doing anything else (auth.md §5A.4).
  bool must_change_password = false;
};

// What one OIDC sign-in tells about the person (auth.md §4.2): written on every sign-in.
struct OidcIdentity {
  std::string provider;
  std::string subject;
  std::string display_name;
  std::string picture_url;
};

class UserStore {
 public:
  virtual ~UserStore() = default;
  // Throws DuplicateKeyError when the id or the (lower-cased) email exists.
  virtual void InsertUser(const User& user) = 0;
  virtual std::optional<User> FindUserById(const std::string& id) = 0;
  virtual std::optional<User> FindUserByEmail(const std::string& email) = 0;
  virtual std::vector<User> ListUsers() = 0;
  virtual void SetUserActive(const std::string& id, bool active) = 0;
  virtual void SetUserSuperAdmin(const std::string& id, bool super_admin) = 0;
  // Replaces the hash ("" = no local password) and says whether it is one-time.
  virtual void SetUserPasswordHash(const std::string& id, const std::string& hash,
                                   bool must_change) = 0;
  virtual int64_t CountUsers() = 0;
  // Links the row to the provider the person signed in through, refreshes the name and picture
  // from its ID token and stamps the sign-in time.
  virtual void RecordOidcSignIn(const std::string& id, const OidcIdentity& identity,
                                int64_t at_ms) = 0;
};

// The SQL adapter, written once in the portable subset for both backends.
std::unique_ptr<UserStore> OpenUserStore(SqlExecutor& sql);

}  // namespace dp
