// The template tables (migration 0002) against both adapters: SQLite on a fresh temp file,
// PostgreSQL (DP_TEST_PG_META_URL) in a private schema per test. Every write is a
// compare-and-swap, so the interesting cases are the stale ones.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <vector>

#include "datapipelines/store/metadata_store.hpp"
#include "integration/store/store_suite.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

TemplateVersionRecord Version(const std::string& ws, const std::string& id, int version,
                              const std::string& status, const std::string& hash) {
  TemplateVersionRecord v;
  v.workspace_id = ws;
  v.template_id = id;
  v.version = version;
  v.status = status;
  v.dialect = "POSTGRES";
  v.display_name = "Name " + id;
  v.description = "Expects region (STRING).";
  v.imports = Json::array({{{"id", "acme/lib/d.sql"}, {"version", 1}, {"alias", "d"}}});
  v.body = "SELECT '" + hash + "'";
  v.body_hash = hash;
  v.created_by = v.updated_by = "u1";
  v.created_at_ms = v.updated_at_ms = 1000 + version;
  return v;
}

class TemplateStoreTest : public store_suite::StoreSuite {
 protected:
  void SetUp() override {
    StoreSuite::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    store_->Users().InsertUser(User{"u1", "one@example.com", "One", "", true, false, 1});
    store_->Workspaces().InsertWorkspace(Workspace{"w1", "analytics", "W1", "u1", 2});
    store_->Workspaces().InsertWorkspace(Workspace{"w2", "finance", "W2", "u1", 3});
  }

  void TearDown() override { StoreSuite::TearDown(); }

  // A template with version 1 in `status`.
  void Seed(const std::string& ws, const std::string& id, const std::string& status = "DRAFT",
            const std::string& hash = "h1") {
    store().Templates().InsertTemplate(TemplateRecord{ws, id, "u1", 100, false},
                                       Version(ws, id, 1, status, hash));
  }
};

TEST_P(TemplateStoreTest, RoundTripsEveryField) {
  Seed("w1", "acme/a.sql");
  TemplateVersionRecord html = Version("w1", "acme/p.html", 1, "DRAFT", "hp");
  html.type = "html";
  html.dialect.clear();
  html.is_library = true;
  html.imports = Json::array();
  store().Templates().InsertTemplate(TemplateRecord{"w1", "acme/p.html", "u1", 100, false}, html);

  auto entity = store().Templates().FindTemplate("w1", "acme/a.sql");
  ASSERT_TRUE(entity);
  EXPECT_EQ(entity->created_by, "u1");
  EXPECT_EQ(entity->created_at_ms, 100);
  EXPECT_FALSE(entity->is_deleted);
  auto v = store().Templates().FindTemplateVersion("w1", "acme/a.sql", 1);
  ASSERT_TRUE(v);
  TemplateVersionRecord expected = Version("w1", "acme/a.sql", 1, "DRAFT", "h1");
  EXPECT_EQ(v->status, "DRAFT");
  EXPECT_EQ(v->engine, "freemarker");
  EXPECT_EQ(v->type, "sql");
  EXPECT_EQ(v->dialect, "POSTGRES");
  EXPECT_EQ(v->display_name, expected.display_name);
  EXPECT_EQ(v->description, expected.description);
  EXPECT_EQ(v->imports, expected.imports);
  EXPECT_EQ(v->body, expected.body);
  EXPECT_EQ(v->body_hash, "h1");
  EXPECT_EQ(v->updated_at_ms, 1001);
  auto p = store().Templates().FindTemplateVersion("w1", "acme/p.html", 1);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->type, "html");
  EXPECT_EQ(p->dialect, "");
  EXPECT_TRUE(p->is_library);
  EXPECT_FALSE(store().Templates().FindTemplateVersion("w1", "acme/a.sql", 2));
  EXPECT_FALSE(store().Templates().FindTemplate("w2", "acme/a.sql"));  // workspace-scoped
}

TEST_P(TemplateStoreTest, IdsAreUniquePerWorkspace) {
  Seed("w1", "acme/a.sql");
  EXPECT_THROW(Seed("w1", "acme/a.sql", "DRAFT", "other"), DuplicateKeyError);
  EXPECT_EQ(store().Templates().FindTemplateVersion("w1", "acme/a.sql", 1)->body_hash, "h1");
  Seed("w2", "acme/a.sql", "DRAFT", "w2hash");
  EXPECT_EQ(store().Templates().FindTemplateVersion("w2", "acme/a.sql", 1)->body_hash, "w2hash");
}

TEST_P(TemplateStoreTest, FailedFirstVersionLeavesNoEntity) {
  TemplateVersionRecord bad = Version("w1", "acme/a.sql", 1, "BOGUS", "h1");  // CHECK fails
  EXPECT_ANY_THROW(
      store().Templates().InsertTemplate(TemplateRecord{"w1", "acme/a.sql", "u1", 1, false}, bad));
  EXPECT_FALSE(store().Templates().FindTemplate("w1", "acme/a.sql"));
  Seed("w1", "acme/a.sql");  // the id is still free
}

TEST_P(TemplateStoreTest, CopyOnWriteDraftIsGuarded) {
  Seed("w1", "acme/a.sql", "RELEASED", "h1");
  // Stale base hash, unknown base version: nothing written.
  EXPECT_FALSE(store().Templates().InsertTemplateDraft(
      Version("w1", "acme/a.sql", 2, "DRAFT", "h2"), 1, "x"));
  EXPECT_FALSE(store().Templates().InsertTemplateDraft(
      Version("w1", "acme/a.sql", 2, "DRAFT", "h2"), 7, "h1"));
  EXPECT_TRUE(store().Templates().InsertTemplateDraft(Version("w1", "acme/a.sql", 2, "DRAFT", "h2"),
                                                      1, "h1"));
  // A second draft, or the same number again, loses.
  EXPECT_FALSE(store().Templates().InsertTemplateDraft(
      Version("w1", "acme/a.sql", 3, "DRAFT", "h3"), 1, "h1"));
  EXPECT_FALSE(store().Templates().InsertTemplateDraft(
      Version("w1", "acme/a.sql", 2, "DRAFT", "h3"), 1, "h1"));
  auto versions = store().Templates().ListTemplateVersions("w1", "acme/a.sql");
  ASSERT_EQ(versions.size(), 2u);
  EXPECT_EQ(versions[1].body_hash, "h2");
  EXPECT_EQ(versions[1].imports.size(), 1u);
}

TEST_P(TemplateStoreTest, RacingCopyOnWritesHaveOneWinner) {
  Seed("w1", "acme/a.sql", "RELEASED", "h1");
  auto second = OpenMetadataStore(url_);
  std::atomic<int> wins{0};
  std::thread a([&] {
    wins += store().Templates().InsertTemplateDraft(Version("w1", "acme/a.sql", 2, "DRAFT", "ha"),
                                                    1, "h1");
  });
  std::thread b([&] {
    wins += second->Templates().InsertTemplateDraft(Version("w1", "acme/a.sql", 2, "DRAFT", "hb"),
                                                    1, "h1");
  });
  a.join();
  b.join();
  EXPECT_EQ(wins.load(), 1);
  EXPECT_EQ(store().Templates().ListTemplateVersions("w1", "acme/a.sql").size(), 2u);
}

TEST_P(TemplateStoreTest, OverwriteDraftOnlyWithItsCurrentHash) {
  Seed("w1", "acme/a.sql", "DRAFT", "h1");
  TemplateVersionRecord next = Version("w1", "acme/a.sql", 1, "DRAFT", "h2");
  next.body = "SELECT 2";
  next.updated_by = "u9";
  EXPECT_FALSE(store().Templates().OverwriteTemplateDraft(next, "stale"));
  EXPECT_TRUE(store().Templates().OverwriteTemplateDraft(next, "h1"));
  EXPECT_FALSE(store().Templates().OverwriteTemplateDraft(next, "h1"));  // h1 is gone now
  auto v = store().Templates().FindTemplateVersion("w1", "acme/a.sql", 1);
  EXPECT_EQ(v->body, "SELECT 2");
  EXPECT_EQ(v->updated_by, "u9");
  EXPECT_EQ(v->created_by, "u1");
  // A released version is never overwritten.
  ASSERT_TRUE(store().Templates().ReleaseTemplateDraft("w1", "acme/a.sql", 1, "h2", "u1", 5));
  EXPECT_FALSE(store().Templates().OverwriteTemplateDraft(
      Version("w1", "acme/a.sql", 1, "DRAFT", "h3"), "h2"));
}

TEST_P(TemplateStoreTest, ReleaseDiscardAndTheWorkingVersion) {
  Seed("w1", "acme/a.sql", "DRAFT", "h1");
  EXPECT_FALSE(store().Templates().ReleaseTemplateDraft("w1", "acme/a.sql", 1, "stale", "u1", 5));
  EXPECT_TRUE(store().Templates().ReleaseTemplateDraft("w1", "acme/a.sql", 1, "h1", "u1", 5));
  EXPECT_FALSE(store().Templates().ReleaseTemplateDraft("w1", "acme/a.sql", 1, "h1", "u1", 5));
  ASSERT_TRUE(store().Templates().InsertTemplateDraft(Version("w1", "acme/a.sql", 2, "DRAFT", "h2"),
                                                      1, "h1"));
  Seed("w1", "acme/b.sql", "DRAFT", "hb");
  auto working = store().Templates().ListWorkingTemplateVersions("w1");
  ASSERT_EQ(working.size(), 2u);
  EXPECT_EQ(working[0].template_id, "acme/a.sql");
  EXPECT_EQ(working[0].version, 2);  // the draft wins over the release
  EXPECT_EQ(working[0].body, "");    // listings never carry bodies
  // Discarding the draft makes the release the working version again.
  EXPECT_FALSE(
      store().Templates().DiscardTemplateVersion("w1", "acme/a.sql", 2, "RELEASED", "u1", 6));
  EXPECT_TRUE(store().Templates().DiscardTemplateVersion("w1", "acme/a.sql", 2, "DRAFT", "u1", 6));
  EXPECT_EQ(store().Templates().ListWorkingTemplateVersions("w1")[0].version, 1);
  // The last live version is never discarded.
  EXPECT_FALSE(
      store().Templates().DiscardTemplateVersion("w1", "acme/a.sql", 1, "RELEASED", "u1", 7));
  EXPECT_FALSE(store().Templates().DiscardTemplateVersion("w1", "acme/b.sql", 1, "DRAFT", "u1", 7));
  EXPECT_TRUE(store().Templates().ListWorkingTemplateVersions("w2").empty());
}

TEST_P(TemplateStoreTest, SoftDeleteHidesFromListingsAndKeepsTheIdTaken) {
  Seed("w1", "acme/a.sql");
  EXPECT_TRUE(store().Templates().SoftDeleteTemplate("w1", "acme/a.sql", "u1", 9));
  EXPECT_FALSE(store().Templates().SoftDeleteTemplate("w1", "acme/a.sql", "u1", 9));
  EXPECT_TRUE(store().Templates().FindTemplate("w1", "acme/a.sql")->is_deleted);
  EXPECT_TRUE(store().Templates().ListWorkingTemplateVersions("w1").empty());
  EXPECT_EQ(store().Templates().ListTemplateVersions("w1", "acme/a.sql").size(),
            1u);  // history kept
  EXPECT_THROW(Seed("w1", "acme/a.sql"), DuplicateKeyError);
}

TEST_P(TemplateStoreTest, PurgeTakesOnlyAnUntouchedSoleDraft) {
  Seed("w1", "acme/a.sql", "DRAFT", "h1");
  EXPECT_FALSE(store().Templates().PurgeTemplateDraft("w1", "acme/a.sql", "stale"));
  EXPECT_FALSE(store().Templates().PurgeTemplateDraft("w2", "acme/a.sql", "h1"));
  EXPECT_TRUE(store().Templates().PurgeTemplateDraft("w1", "acme/a.sql", "h1"));
  EXPECT_FALSE(store().Templates().FindTemplate("w1", "acme/a.sql"));
  EXPECT_TRUE(store().Templates().ListTemplateVersions("w1", "acme/a.sql").empty());  // cascaded

  Seed("w1", "acme/b.sql", "RELEASED", "h1");
  EXPECT_FALSE(store().Templates().PurgeTemplateDraft("w1", "acme/b.sql", "h1"));
  Seed("w1", "acme/c.sql", "DRAFT", "h1");
  ASSERT_TRUE(store().Templates().ReleaseTemplateDraft("w1", "acme/c.sql", 1, "h1", "u1", 5));
  ASSERT_TRUE(store().Templates().InsertTemplateDraft(Version("w1", "acme/c.sql", 2, "DRAFT", "h2"),
                                                      1, "h1"));
  EXPECT_FALSE(store().Templates().PurgeTemplateDraft("w1", "acme/c.sql", "h1"));
  EXPECT_EQ(store().Templates().ListTemplateVersions("w1", "acme/c.sql").size(), 2u);
}

DP_STORE_SUITE_ON_EACH_BACKEND(TemplateStoreTest);

}  // namespace
}  // namespace dp
