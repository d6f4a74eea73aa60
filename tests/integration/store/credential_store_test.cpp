// CredentialStore (API keys and sessions), on both adapters.
#include <gtest/gtest.h>

#include <string>

#include "store_suite.hpp"

namespace dp {
namespace {

using namespace store_suite;

class CredentialStoreTest : public StoreSuite {};

TEST_P(CredentialStoreTest, ApiKeyRoundTripAndLists) {
  SeedUserAndWorkspace();
  store().Users().InsertUser(MakeUser("u2", "two@example.com"));
  ApiKeyRecord k1 = MakeKey("dpk_AAAAAAAAAAAA", "u1", "w1", 100);
  ApiKeyRecord k2 = MakeKey("dpk_BBBBBBBBBBBB", "u1", "", 200);  // server key: no workspace
  k2.kind = KeyKind::kServer;
  k2.scope = Scope::kAuthor;
  k2.expires_at_ms.reset();
  ApiKeyRecord k3 = MakeKey("dpk_CCCCCCCCCCCC", "u2", "w1", 300);
  k3.kind = KeyKind::kUser;
  k3.scope = Scope::kRead;
  k3.last_used_at_ms = 250;
  store().Credentials().InsertApiKey(k1);
  store().Credentials().InsertApiKey(k2);
  store().Credentials().InsertApiKey(k3);

  auto found = store().Credentials().FindApiKey("dpk_AAAAAAAAAAAA");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->user_id, "u1");
  EXPECT_EQ(found->workspace_id, "w1");
  EXPECT_EQ(found->name, "key dpk_AAAAAAAAAAAA");
  EXPECT_EQ(found->kind, KeyKind::kEndpoint);
  EXPECT_EQ(found->scope, Scope::kExecute);
  EXPECT_EQ(found->key_hash, "$argon2id$hash-of-dpk_AAAAAAAAAAAA");
  EXPECT_FALSE(found->is_revoked);
  EXPECT_EQ(found->created_at_ms, 100);
  EXPECT_EQ(found->expires_at_ms, std::optional<int64_t>(9'000'000'000'000));
  EXPECT_FALSE(found->last_used_at_ms.has_value());

  auto server = store().Credentials().FindApiKey("dpk_BBBBBBBBBBBB");
  ASSERT_TRUE(server.has_value());
  EXPECT_EQ(server->workspace_id, "");
  EXPECT_EQ(server->kind, KeyKind::kServer);
  EXPECT_EQ(server->scope, Scope::kAuthor);
  EXPECT_FALSE(server->expires_at_ms.has_value());
  EXPECT_EQ(store().Credentials().FindApiKey("dpk_CCCCCCCCCCCC")->last_used_at_ms,
            std::optional<int64_t>(250));
  EXPECT_FALSE(store().Credentials().FindApiKey("dpk_ZZZZZZZZZZZZ").has_value());

  auto of_u1 = store().Credentials().ListApiKeysOfUser("u1");
  ASSERT_EQ(of_u1.size(), 2u);
  EXPECT_EQ(of_u1[0].id, "dpk_AAAAAAAAAAAA");
  EXPECT_EQ(of_u1[1].id, "dpk_BBBBBBBBBBBB");
  auto all = store().Credentials().ListApiKeys();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[2].id, "dpk_CCCCCCCCCCCC");
  EXPECT_TRUE(store().Credentials().ListApiKeysOfUser("nobody").empty());

  EXPECT_THROW(store().Credentials().InsertApiKey(k1), DuplicateKeyError);
}

TEST_P(CredentialStoreTest, RevokeApiKey) {
  SeedUserAndWorkspace();
  store().Credentials().InsertApiKey(MakeKey("dpk_AAAAAAAAAAAA", "u1", "w1"));
  EXPECT_TRUE(store().Credentials().RevokeApiKey("dpk_AAAAAAAAAAAA"));
  EXPECT_TRUE(store().Credentials().FindApiKey("dpk_AAAAAAAAAAAA")->is_revoked);
  EXPECT_TRUE(store().Credentials().RevokeApiKey("dpk_AAAAAAAAAAAA"));  // known key: still true
  EXPECT_FALSE(store().Credentials().RevokeApiKey("dpk_UNKNOWNUNKNO"));
}

TEST_P(CredentialStoreTest, TouchApiKeyRecordsLastUseMonotonically) {
  SeedUserAndWorkspace();
  store().Credentials().InsertApiKey(MakeKey("dpk_AAAAAAAAAAAA", "u1", "w1"));
  store().Credentials().TouchApiKey("dpk_AAAAAAAAAAAA", 5000);
  EXPECT_EQ(store().Credentials().FindApiKey("dpk_AAAAAAAAAAAA")->last_used_at_ms,
            std::optional<int64_t>(5000));
  store().Credentials().TouchApiKey("dpk_AAAAAAAAAAAA", 7000);
  EXPECT_EQ(store().Credentials().FindApiKey("dpk_AAAAAAAAAAAA")->last_used_at_ms,
            std::optional<int64_t>(7000));
  store().Credentials().TouchApiKey("dpk_AAAAAAAAAAAA", 6000);  // a late, older touch loses
  EXPECT_EQ(store().Credentials().FindApiKey("dpk_AAAAAAAAAAAA")->last_used_at_ms,
            std::optional<int64_t>(7000));
  EXPECT_NO_THROW(store().Credentials().TouchApiKey("dpk_UNKNOWNUNKNO", 1));
}

TEST_P(CredentialStoreTest, ApiKeyMintedByRoundTrips) {
  SeedUserAndWorkspace();
  ApiKeyRecord parent = MakeKey("dpk_AAAAAAAAAAAA", "u1", "w1");
  parent.minted_by = "session";
  ApiKeyRecord child = MakeKey("dpk_BBBBBBBBBBBB", "u1", "w1");
  child.minted_by = parent.id;
  store().Credentials().InsertApiKey(parent);
  store().Credentials().InsertApiKey(child);
  store().Credentials().InsertApiKey(MakeKey("dpk_CCCCCCCCCCCC", "u1", "w1"));
  EXPECT_EQ(store().Credentials().FindApiKey(parent.id)->minted_by, "session");
  EXPECT_EQ(store().Credentials().FindApiKey(child.id)->minted_by, parent.id);
  EXPECT_EQ(store().Credentials().FindApiKey("dpk_CCCCCCCCCCCC")->minted_by, "");  // not recorded
}

TEST_P(CredentialStoreTest, SessionInsertFindDelete) {
  SeedUserAndWorkspace();
  store().Credentials().InsertSession({"hash-a", "u1", "w1", 100, 200});
  store().Credentials().InsertSession({"hash-b", "u1", "", 300, 400});  // no active workspace

  auto a = store().Credentials().FindSession("hash-a");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->user_id, "u1");
  EXPECT_EQ(a->workspace_id, "w1");
  EXPECT_EQ(a->created_at_ms, 100);
  EXPECT_EQ(a->expires_at_ms, 200);
  EXPECT_EQ(store().Credentials().FindSession("hash-b")->workspace_id, "");
  EXPECT_FALSE(store().Credentials().FindSession("hash-c").has_value());

  EXPECT_THROW(store().Credentials().InsertSession({"hash-a", "u1", "", 1, 2}), DuplicateKeyError);

  store().Credentials().DeleteSession("hash-a");
  EXPECT_FALSE(store().Credentials().FindSession("hash-a").has_value());
  EXPECT_TRUE(store().Credentials().FindSession("hash-b").has_value());
  EXPECT_NO_THROW(store().Credentials().DeleteSession("hash-a"));
}

TEST_P(CredentialStoreTest, DeleteOtherSessionsOfUserKeepsOneAndOtherUsers) {
  SeedUserAndWorkspace();
  store().Users().InsertUser(MakeUser("u2", "two@example.com"));
  for (const char* hash : {"keep", "old-1", "old-2"})
    store().Credentials().InsertSession({hash, "u1", "", 1, 9});
  store().Credentials().InsertSession({"theirs", "u2", "", 1, 9});
  EXPECT_EQ(store().Credentials().DeleteOtherSessionsOfUser("u1", "keep"), 2);
  EXPECT_TRUE(store().Credentials().FindSession("keep").has_value());
  EXPECT_FALSE(store().Credentials().FindSession("old-1").has_value());
  EXPECT_FALSE(store().Credentials().FindSession("old-2").has_value());
  EXPECT_TRUE(store().Credentials().FindSession("theirs").has_value());
  EXPECT_EQ(store().Credentials().DeleteOtherSessionsOfUser("u1", "keep"), 0);
}

DP_STORE_SUITE_ON_EACH_BACKEND(CredentialStoreTest);

}  // namespace
}  // namespace dp
