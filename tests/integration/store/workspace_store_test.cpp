// WorkspaceStore (workspaces and memberships), on both adapters.
#include <gtest/gtest.h>

#include <string>

#include "store_suite.hpp"

namespace dp {
namespace {

using namespace store_suite;

class WorkspaceStoreTest : public StoreSuite {};

TEST_P(WorkspaceStoreTest, WorkspaceRoundTripAndLookups) {
  store().Users().InsertUser(MakeUser("u1", "a@example.com"));
  store().Workspaces().InsertWorkspace(MakeWorkspace("w2", "zeta", "u1"));
  store().Workspaces().InsertWorkspace(MakeWorkspace("w1", "alpha"));  // no creator recorded

  auto w = store().Workspaces().FindWorkspaceById("w2");
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->name, "zeta");
  EXPECT_EQ(w->display_name, "Workspace zeta");
  EXPECT_EQ(w->created_by, "u1");
  EXPECT_EQ(w->created_at_ms, 2000);
  EXPECT_EQ(store().Workspaces().FindWorkspaceById("w1")->created_by, "");

  auto by_name = store().Workspaces().FindWorkspaceByName("alpha");
  ASSERT_TRUE(by_name.has_value());
  EXPECT_EQ(by_name->id, "w1");
  EXPECT_FALSE(store().Workspaces().FindWorkspaceByName("missing").has_value());
  EXPECT_FALSE(store().Workspaces().FindWorkspaceById("missing").has_value());

  auto all = store().Workspaces().ListWorkspaces();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, "alpha");  // by name
  EXPECT_EQ(all[1].name, "zeta");
}

TEST_P(WorkspaceStoreTest, DuplicateWorkspacesAreRejected) {
  store().Workspaces().InsertWorkspace(MakeWorkspace("w1", "analytics"));
  EXPECT_THROW(store().Workspaces().InsertWorkspace(MakeWorkspace("w2", "analytics")),
               DuplicateKeyError);
  EXPECT_THROW(store().Workspaces().InsertWorkspace(MakeWorkspace("w1", "other")),
               DuplicateKeyError);
  EXPECT_EQ(store().Workspaces().ListWorkspaces().size(), 1u);
}

// ---- memberships

TEST_P(WorkspaceStoreTest, MembershipUpsertFindListDelete) {
  SeedUserAndWorkspace();
  store().Users().InsertUser(MakeUser("u2", "two@example.com"));
  store().Workspaces().InsertWorkspace(MakeWorkspace("w2", "finance"));

  store().Workspaces().UpsertMembership({"w1", "u1", MemberFlags{true, true, true}, 100});
  store().Workspaces().UpsertMembership({"w1", "u2", MemberFlags{}, 200});
  store().Workspaces().UpsertMembership({"w2", "u1", MemberFlags{}, 300});

  auto m = store().Workspaces().FindMembership("w1", "u2");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->flags, (MemberFlags{}));
  EXPECT_EQ(m->joined_at_ms, 200);
  EXPECT_FALSE(store().Workspaces().FindMembership("w2", "u2").has_value());

  // Upsert replaces the role and keeps the original join time.
  store().Workspaces().UpsertMembership({"w1", "u2", MemberFlags{true, true, false}, 999});
  m = store().Workspaces().FindMembership("w1", "u2");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->flags, (MemberFlags{true, true, false}));
  EXPECT_EQ(m->joined_at_ms, 200);

  auto members = store().Workspaces().ListMembers("w1");
  ASSERT_EQ(members.size(), 2u);
  EXPECT_EQ(members[0].user_id, "u1");
  EXPECT_EQ(members[0].flags, (MemberFlags{true, true, true}));
  EXPECT_EQ(members[1].user_id, "u2");

  auto of_user = store().Workspaces().ListMembershipsOfUser("u1");
  ASSERT_EQ(of_user.size(), 2u);
  EXPECT_EQ(of_user[0].workspace_id, "w1");
  EXPECT_EQ(of_user[1].workspace_id, "w2");
  EXPECT_EQ(of_user[1].flags, (MemberFlags{}));

  EXPECT_TRUE(store().Workspaces().DeleteMembership("w1", "u2"));
  EXPECT_FALSE(store().Workspaces().DeleteMembership("w1", "u2"));
  EXPECT_FALSE(store().Workspaces().FindMembership("w1", "u2").has_value());
  EXPECT_EQ(store().Workspaces().ListMembers("w1").size(), 1u);
}

TEST_P(WorkspaceStoreTest, EveryRoleRoundTrips) {
  SeedUserAndWorkspace();
  for (MemberFlags flags : {MemberFlags{}, MemberFlags{false, true, false},
                            MemberFlags{true, false, false}, MemberFlags{true, true, true}}) {
    store().Workspaces().UpsertMembership({"w1", "u1", flags, 1});
    EXPECT_EQ(store().Workspaces().FindMembership("w1", "u1")->flags, flags) << FlagsName(flags);
  }
  // An admin always authors: the flags are normalised on the way in.
  store().Workspaces().UpsertMembership({"w1", "u1", MemberFlags{false, false, true}, 1});
  EXPECT_EQ(store().Workspaces().FindMembership("w1", "u1")->flags,
            (MemberFlags{true, false, true}));
}

TEST_P(WorkspaceStoreTest, ForeignKeysAreEnforced) {
  SeedUserAndWorkspace();
  EXPECT_THROW(store().Workspaces().UpsertMembership({"w1", "ghost", (MemberFlags{}), 1}),
               std::runtime_error);
  EXPECT_THROW(store().Credentials().InsertApiKey(MakeKey("dpk_AAAAAAAAAAAA", "ghost", "w1")),
               std::runtime_error);
  EXPECT_THROW(store().Credentials().InsertSession({"hash", "u1", "no-such-ws", 1, 2}),
               std::runtime_error);
  try {
    store().Workspaces().UpsertMembership({"nope", "u1", MemberFlags{}, 1});
    FAIL() << "expected a foreign-key violation";
  } catch (const DuplicateKeyError&) {
    FAIL() << "a foreign-key violation is not a duplicate";
  } catch (const std::runtime_error&) {
  }
}

DP_STORE_SUITE_ON_EACH_BACKEND(WorkspaceStoreTest);

}  // namespace
}  // namespace dp
