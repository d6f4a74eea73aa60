// Users (migration 0001), written once in the portable SQL subset for both adapters.
#include "datapipelines/store/user_store.hpp"

#include <memory>
#include <string>

#include "datapipelines/util/ascii.hpp"

#include "datapipelines/store/sql_executor.hpp"
#include "sql_cells.hpp"

namespace dp {
namespace {

using sql_cells::All;
using sql_cells::Bool;
using sql_cells::First;
using sql_cells::Int;
using sql_cells::NullIfEmpty;
using sql_cells::NullIfZero;
using sql_cells::Select;
using sql_cells::Text;

constexpr const char* kUserColumns =
    "id, email, display_name, password_hash, is_active, is_super_admin, created_at_ms, provider, "
    "provider_subject, profile_picture_url, last_login_at_ms, must_change_password";

User ToUser(const SqlRow& r) {
  return User{Text(r, 0), Text(r, 1), Text(r, 2), Text(r, 3), Int(r, 4) != 0, Int(r, 5) != 0,
              Int(r, 6),  Text(r, 7), Text(r, 8), Text(r, 9), Int(r, 10),     Int(r, 11) != 0};
}

class SqlUserStore final : public UserStore {
 public:
  explicit SqlUserStore(SqlExecutor& sql) : sql_(sql) {}

  void InsertUser(const User& user) override;
  std::optional<User> FindUserById(const std::string& id) override;
  std::optional<User> FindUserByEmail(const std::string& email) override;
  std::vector<User> ListUsers() override;
  void SetUserActive(const std::string& id, bool active) override;
  void SetUserSuperAdmin(const std::string& id, bool super_admin) override;
  void SetUserPasswordHash(const std::string& id, const std::string& hash,
                           bool must_change) override;
  int64_t CountUsers() override;
  void RecordOidcSignIn(const std::string& id, const OidcIdentity& identity,
                        int64_t at_ms) override;

 private:
  SqlExecutor& sql_;
};

// ---- users

void SqlUserStore::InsertUser(const User& u) {
  sql_.Execute(std::string("INSERT INTO users (") + kUserColumns +
                   ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
               {u.id, AsciiLower(u.email), u.display_name, u.password_hash, Bool(u.is_active),
                Bool(u.is_super_admin), u.created_at_ms, u.provider.empty() ? "local" : u.provider,
                NullIfEmpty(u.provider_subject), NullIfEmpty(u.profile_picture_url),
                NullIfZero(u.last_login_at_ms), Bool(u.must_change_password)});
}

std::optional<User> SqlUserStore::FindUserById(const std::string& id) {
  return First(sql_.Query(Select(kUserColumns, "FROM users WHERE id = $1"), {id}), &ToUser);
}

std::optional<User> SqlUserStore::FindUserByEmail(const std::string& email) {
  return First(sql_.Query(Select(kUserColumns, "FROM users WHERE email = $1"), {AsciiLower(email)}),
               &ToUser);
}

std::vector<User> SqlUserStore::ListUsers() {
  return All(sql_.Query(Select(kUserColumns, "FROM users ORDER BY created_at_ms, email"), {}),
             &ToUser);
}

void SqlUserStore::SetUserActive(const std::string& id, bool active) {
  sql_.Execute("UPDATE users SET is_active = $2 WHERE id = $1", {id, Bool(active)});
}

void SqlUserStore::SetUserSuperAdmin(const std::string& id, bool super_admin) {
  sql_.Execute("UPDATE users SET is_super_admin = $2 WHERE id = $1", {id, Bool(super_admin)});
}

void SqlUserStore::SetUserPasswordHash(const std::string& id, const std::string& hash,
                                       bool must_change) {
  sql_.Execute("UPDATE users SET password_hash = $2, must_change_password = $3 WHERE id = $1",
               {id, hash, Bool(must_change)});
}

void SqlUserStore::RecordOidcSignIn(const std::string& id, const OidcIdentity& identity,
                                    int64_t at_ms) {
  sql_.Execute(
      "UPDATE users SET provider = $2, provider_subject = $3, display_name = $4, "
      "profile_picture_url = $5, last_login_at_ms = $6 WHERE id = $1",
      {id, identity.provider, identity.subject, identity.display_name,
       NullIfEmpty(identity.picture_url), at_ms});
}

int64_t SqlUserStore::CountUsers() {
  return Int(sql_.Query("SELECT COUNT(*) FROM users", {}).at(0), 0);
}

}  // namespace

std::unique_ptr<UserStore> OpenUserStore(SqlExecutor& sql) {
  return std::make_unique<SqlUserStore>(sql);
}

}  // namespace dp
