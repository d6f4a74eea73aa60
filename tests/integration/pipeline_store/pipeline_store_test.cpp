// The pipeline tables (migration 0004) and the audit reader against both adapters: SQLite on a
// fresh temp file, PostgreSQL (DP_TEST_PG_META_URL) in a private schema per test. Every write
// is a compare-and-swap, so the interesting cases are the stale ones.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <pqxx/pqxx>
#include <string>

#include "datapipelines/store/audit_reader.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/pipeline_store.hpp"
#include "integration/store/store_suite.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

PipelineVersionRecord Version(const std::string& id, int version, const std::string& status,
                              const std::string& hash) {
  PipelineVersionRecord v;
  v.pipeline_id = id;
  v.version = version;
  v.status = status;
  v.body = {{"name", "acme/p"}, {"nodes", Json::array({{{"id", "n"}, {"source", "pg"}}})}};
  v.body_hash = hash;
  v.created_by = v.updated_by = "u1";
  v.created_at_ms = v.updated_at_ms = 1000 + version;
  return v;
}

class PipelineStoreTest : public store_suite::StoreSuite {
 protected:
  void SetUp() override {
    StoreSuite::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    store_->Users().InsertUser(User{"u1", "one@example.com", "One", "", true, false, 1});
    store_->Workspaces().InsertWorkspace(Workspace{"w1", "analytics", "W1", "u1", 2});
    store_->Workspaces().InsertWorkspace(Workspace{"w2", "finance", "W2", "u1", 3});
    pipelines_ = OpenPipelineStore(*store_);
  }

  void TearDown() override {
    pipelines_.reset();
    StoreSuite::TearDown();
  }

  void Seed(const std::string& ws, const std::string& id, const std::string& name,
            const std::string& status = "DRAFT", const std::string& hash = "h1") {
    store().InsertPipeline(PipelineRecord{ws, id, name, "u1", 100}, Version(id, 1, status, hash));
  }

  PipelineStore& store() { return *pipelines_; }

  std::unique_ptr<PipelineStore> pipelines_;
};

TEST_P(PipelineStoreTest, RoundTripsEveryField) {
  Seed("w1", "p-1", "acme/p");
  auto entity = store().FindPipeline("w1", "p-1");
  ASSERT_TRUE(entity);
  EXPECT_EQ(entity->name, "acme/p");
  EXPECT_EQ(entity->owner, "u1");
  EXPECT_EQ(entity->created_at_ms, 100);
  EXPECT_FALSE(store().FindPipeline("w2", "p-1"));  // workspace-scoped
  EXPECT_EQ(store().FindPipelineByName("w1", "acme/p")->id, "p-1");
  auto versions = store().ListPipelineVersions("p-1");
  ASSERT_EQ(versions.size(), 1u);
  EXPECT_EQ(versions[0].body, Version("p-1", 1, "DRAFT", "h1").body);
  EXPECT_EQ(versions[0].status, "DRAFT");
  EXPECT_EQ(versions[0].released_at_ms, 0);
}

TEST_P(PipelineStoreTest, NamesAreUniquePerWorkspace) {
  Seed("w1", "p-1", "acme/p");
  EXPECT_THROW(Seed("w1", "p-2", "acme/p"), DuplicateKeyError);
  EXPECT_FALSE(store().FindPipeline("w1", "p-2"));  // a failed create leaves nothing
  EXPECT_NO_THROW(Seed("w2", "p-3", "acme/p"));
}

TEST_P(PipelineStoreTest, DraftWritesAreCompareAndSwap) {
  Seed("w1", "p-1", "acme/p");
  PipelineVersionRecord next = Version("p-1", 1, "DRAFT", "h2");
  EXPECT_FALSE(store().OverwritePipelineDraft(next, "stale"));
  EXPECT_TRUE(store().OverwritePipelineDraft(next, "h1"));
  EXPECT_FALSE(store().ReleasePipelineDraft("p-1", 1, "h1", "u1", 5000));
  EXPECT_TRUE(store().ReleasePipelineDraft("p-1", 1, "h2", "u1", 5000));
  auto released = store().ListPipelineVersions("p-1")[0];
  EXPECT_EQ(released.status, "RELEASED");
  EXPECT_EQ(released.released_by, "u1");
  EXPECT_EQ(released.released_at_ms, 5000);
  // Copy-on-write needs the released base with its hash, and at most one draft.
  PipelineVersionRecord v2 = Version("p-1", 2, "DRAFT", "h3");
  EXPECT_FALSE(store().InsertPipelineDraft(v2, 1, "stale"));
  EXPECT_TRUE(store().InsertPipelineDraft(v2, 1, "h2"));
  PipelineVersionRecord v3 = Version("p-1", 3, "DRAFT", "h4");
  EXPECT_FALSE(store().InsertPipelineDraft(v3, 1, "h2"));
  // The entity is never purged while a release exists; the draft alone is.
  EXPECT_FALSE(store().PurgePipeline("p-1", "h3"));
  EXPECT_FALSE(store().PurgePipelineDraft("p-1", 2, "stale"));
  EXPECT_TRUE(store().PurgePipelineDraft("p-1", 2, "h3"));
  EXPECT_EQ(store().ListPipelineVersions("p-1").size(), 1u);
}

TEST_P(PipelineStoreTest, PurgeOfASoleDraftTakesTheEntity) {
  Seed("w1", "p-1", "acme/p");
  EXPECT_FALSE(store().PurgePipelineDraft("p-1", 1, "h1"));  // it is the only version
  EXPECT_FALSE(store().PurgePipeline("p-1", "stale"));
  EXPECT_TRUE(store().PurgePipeline("p-1", "h1"));
  EXPECT_FALSE(store().FindPipeline("w1", "p-1"));
  EXPECT_TRUE(store().ListPipelineVersions("p-1").empty());
}

TEST_P(PipelineStoreTest, ListsByWorkspaceWithEveryVersion) {
  Seed("w1", "p-1", "acme/b", "RELEASED", "h1");
  ASSERT_TRUE(store().InsertPipelineDraft(Version("p-1", 2, "DRAFT", "h2"), 1, "h1"));
  Seed("w1", "p-2", "acme/a");
  Seed("w2", "p-3", "acme/c");
  auto listed = store().ListPipelines("w1");
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].entity.name, "acme/a");
  EXPECT_EQ(listed[1].versions.size(), 2u);
  EXPECT_EQ(store().ListPipelines("").size(), 3u);
}

TEST_P(PipelineStoreTest, AuditReaderReturnsOneKeysSuccessfulCalls) {
  auto record = [&](const std::string& key, const std::string& tool, const std::string& outcome,
                    const std::string& table) {
    AuditEvent event;
    event.timestamp_ms = 10;
    event.event = "mcp.tool.called";
    event.user_id = "u1";
    event.key_id = key;
    event.details = {
        {"tool", tool}, {"target", {{"datasource", "pg"}, {"table", table}}}, {"outcome", outcome}};
    store_->Audit().AppendAudit(event);
  };
  record("dpk_a", "datasources_get_columns", "success", "orders");
  record("dpk_a", "datasources_get_columns", "error", "refunds");
  record("dpk_a", "datasources_get_tables", "success", "");
  record("dpk_b", "datasources_get_columns", "success", "customers");
  auto reader = OpenAuditReader(*store_);
  auto calls = reader->SuccessfulToolCalls("dpk_a", "datasources_get_columns");
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].target["table"], "orders");
  EXPECT_TRUE(reader->SuccessfulToolCalls("", "datasources_get_columns").empty());
}

DP_STORE_SUITE_ON_EACH_BACKEND(PipelineStoreTest);

}  // namespace
}  // namespace dp
