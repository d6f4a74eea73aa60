// UserStore, on both adapters.
#include <gtest/gtest.h>

#include <string>

#include "store_suite.hpp"

namespace dp {
namespace {

using namespace store_suite;

class UserStoreTest : public StoreSuite {};

TEST_P(UserStoreTest, UserRoundTripAndLookups) {
  User u = MakeUser("u1", "Alice@Example.COM", 1234);
  u.is_super_admin = true;
  store().Users().InsertUser(u);

  auto by_id = store().Users().FindUserById("u1");
  ASSERT_TRUE(by_id.has_value());
  EXPECT_EQ(by_id->email, "alice@example.com");  // stored lowercased
  EXPECT_EQ(by_id->display_name, "User u1");
  EXPECT_EQ(by_id->password_hash, u.password_hash);
  EXPECT_TRUE(by_id->is_active);
  EXPECT_TRUE(by_id->is_super_admin);
  EXPECT_EQ(by_id->created_at_ms, 1234);

  for (const std::string email : {"alice@example.com", "ALICE@EXAMPLE.COM", "aLiCe@example.com"}) {
    auto found = store().Users().FindUserByEmail(email);
    ASSERT_TRUE(found.has_value()) << email;
    EXPECT_EQ(found->id, "u1");
  }
  EXPECT_FALSE(store().Users().FindUserByEmail("bob@example.com").has_value());
  EXPECT_FALSE(store().Users().FindUserById("nope").has_value());
}

TEST_P(UserStoreTest, ListAndCountUsers) {
  EXPECT_EQ(store().Users().CountUsers(), 0);
  EXPECT_TRUE(store().Users().ListUsers().empty());
  store().Users().InsertUser(MakeUser("u2", "b@example.com", 2000));
  store().Users().InsertUser(MakeUser("u1", "a@example.com", 1000));
  store().Users().InsertUser(MakeUser("u3", "c@example.com", 3000));
  EXPECT_EQ(store().Users().CountUsers(), 3);
  auto users = store().Users().ListUsers();
  ASSERT_EQ(users.size(), 3u);
  EXPECT_EQ(users[0].id, "u1");  // oldest first
  EXPECT_EQ(users[1].id, "u2");
  EXPECT_EQ(users[2].id, "u3");
}

TEST_P(UserStoreTest, SetUserActiveAndPasswordHash) {
  User u = MakeUser("u1", "a@example.com");
  u.password_hash = "";
  store().Users().InsertUser(u);
  EXPECT_EQ(store().Users().FindUserById("u1")->password_hash, "");

  store().Users().SetUserActive("u1", false);
  EXPECT_FALSE(store().Users().FindUserById("u1")->is_active);
  store().Users().SetUserActive("u1", true);
  EXPECT_TRUE(store().Users().FindUserById("u1")->is_active);

  store().Users().SetUserPasswordHash("u1", "$argon2id$new", true);
  EXPECT_EQ(store().Users().FindUserById("u1")->password_hash, "$argon2id$new");
  EXPECT_TRUE(store().Users().FindUserById("u1")->must_change_password);
  store().Users().SetUserPasswordHash("u1", "", false);
  EXPECT_EQ(store().Users().FindUserById("u1")->password_hash, "");
  EXPECT_FALSE(store().Users().FindUserById("u1")->must_change_password);
  EXPECT_NO_THROW(store().Users().SetUserActive("unknown", false));  // no row, no error
}

TEST_P(UserStoreTest, DuplicateUsersAreRejected) {
  store().Users().InsertUser(MakeUser("u1", "a@example.com"));
  EXPECT_THROW(store().Users().InsertUser(MakeUser("u1", "other@example.com")), DuplicateKeyError);
  // Case-insensitive uniqueness: the same address in other case is a duplicate.
  EXPECT_THROW(store().Users().InsertUser(MakeUser("u2", "A@EXAMPLE.com")), DuplicateKeyError);
  EXPECT_EQ(store().Users().CountUsers(), 1);
}

DP_STORE_SUITE_ON_EACH_BACKEND(UserStoreTest);

}  // namespace
}  // namespace dp
