// The published-endpoint tables (migration 0008) against both adapters: SQLite on a fresh temp
// file, PostgreSQL (DP_TEST_PG_META_URL) in a private schema per test. Also what 0008 widened:
// an execution recorded with via 'endpoint', and the serve row an endpoint key's reads rely on.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <pqxx/pqxx>
#include <string>

#include "datapipelines/store/audit_reader.hpp"
#include "datapipelines/store/endpoint_store.hpp"
#include "datapipelines/store/execution_store.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/pipeline_store.hpp"
#include "integration/store/store_suite.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

PublishedEndpointRecord Endpoint(const std::string& id, const std::string& path) {
  PublishedEndpointRecord e;
  e.id = id;
  e.workspace_id = "w1";
  e.path = path;
  e.pipeline_id = "p-1";
  e.timeout_seconds = 30;
  e.description = "Zones by borough";
  e.created_by = "u1";
  e.created_at_ms = 1000;
  e.updated_at_ms = 1001;
  return e;
}

class EndpointStoreTest : public store_suite::StoreSuite {
 protected:
  void SetUp() override {
    StoreSuite::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    store_->Users().InsertUser(User{"u1", "one@example.com", "One", "", true, false, 1});
    store_->Workspaces().InsertWorkspace(Workspace{"w1", "analytics", "W1", "u1", 2});
    PipelineVersionRecord v;
    v.pipeline_id = "p-1";
    v.version = 1;
    v.status = "RELEASED";
    v.body = {{"name", "acme/p"}, {"nodes", Json::array()}};
    v.body_hash = "h1";
    v.created_by = v.updated_by = "u1";
    pipelines_ = OpenPipelineStore(*store_);
    pipelines_->InsertPipeline(PipelineRecord{"w1", "p-1", "acme/p", "u1", 100}, v);
    for (const char* id : {"dpk_key1", "dpk_key2"}) {
      ApiKeyRecord key;
      key.id = id;
      key.user_id = "u1";
      key.workspace_id = "w1";
      key.name = id;
      key.kind = KeyKind::kEndpoint;
      key.key_hash = "x";
      key.created_at_ms = 5;
      store_->Credentials().InsertApiKey(key);
    }
    endpoints_ = OpenEndpointStore(*store_);
  }

  void TearDown() override {
    endpoints_.reset();
    pipelines_.reset();
    StoreSuite::TearDown();
  }

  EndpointStore& store() { return *endpoints_; }

  std::unique_ptr<PipelineStore> pipelines_;
  std::unique_ptr<EndpointStore> endpoints_;
};

TEST_P(EndpointStoreTest, RoundTripsEveryFieldAndIsUniqueByPath) {
  ASSERT_TRUE(store().Insert(Endpoint("e-1", "/zones/{borough}")));
  auto found = store().FindByPath("/zones/{borough}");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->id, "e-1");
  EXPECT_EQ(found->workspace_id, "w1");
  EXPECT_EQ(found->pipeline_id, "p-1");
  EXPECT_EQ(found->timeout_seconds, 30);
  EXPECT_EQ(found->description, "Zones by borough");
  EXPECT_TRUE(found->enabled);
  EXPECT_EQ(found->created_by, "u1");
  EXPECT_EQ(found->created_at_ms, 1000);
  EXPECT_EQ(found->updated_at_ms, 1001);
  // A URL is global: the same pattern again is refused, whatever the id.
  EXPECT_FALSE(store().Insert(Endpoint("e-2", "/zones/{borough}")));
  EXPECT_TRUE(store().Insert(Endpoint("e-3", "/a/b")));
  std::vector<std::string> paths;
  for (const auto& e : store().ListAll()) paths.push_back(e.path);
  EXPECT_EQ(paths, (std::vector<std::string>{"/a/b", "/zones/{borough}"}));
  EXPECT_EQ(store().ListByPipeline("p-1").size(), 2u);
  EXPECT_TRUE(store().ListByPipeline("p-other").empty());
  EXPECT_TRUE(store().Delete("e-1"));
  EXPECT_FALSE(store().Delete("e-1"));
  EXPECT_FALSE(store().FindByPath("/zones/{borough}"));
}

TEST_P(EndpointStoreTest, BindingsAreNodeKeyPairs) {
  EXPECT_TRUE(store().InsertBinding({"/zones", "dpk_key1", "w1", "u1", 10}));
  EXPECT_FALSE(store().InsertBinding({"/zones", "dpk_key1", "w1", "u1", 11}));
  EXPECT_TRUE(store().InsertBinding({"/zones", "dpk_key2", "w1", "u1", 12}));
  EXPECT_TRUE(store().InsertBinding({"/", "dpk_key2", "w1", "u1", 13}));
  auto at = store().BindingsAt({"/zones/{borough}", "/zones"});
  ASSERT_EQ(at.size(), 2u);
  EXPECT_EQ(at[0].api_key_id, "dpk_key1");
  EXPECT_EQ(at[0].created_at_ms, 10);
  EXPECT_EQ(at[1].api_key_id, "dpk_key2");
  EXPECT_TRUE(store().BindingsAt({}).empty());
  EXPECT_EQ(store().ListBindings("w1").size(), 3u);
  EXPECT_TRUE(store().DeleteBinding("/zones", "dpk_key1"));
  EXPECT_FALSE(store().DeleteBinding("/zones", "dpk_key1"));
  EXPECT_EQ(store().BindingsAt({"/zones"}).size(), 1u);
}

TEST_P(EndpointStoreTest, AnExecutionMayBeRecordedAsAnEndpointRun) {
  auto executions = OpenExecutionStore(*store_);
  ExecutionRecord e;
  e.id = "x-1";
  e.workspace_id = "w1";
  e.pipeline_id = "p-1";
  e.pipeline_name = "acme/p";
  e.pipeline_version = 1;
  e.version_status = "RELEASED";
  e.status = "RUNNING";
  e.triggered_by = "u1";
  e.key_id = "dpk_key1";
  e.via = "endpoint";
  e.instance_id = "i-1";
  e.started_at_ms = 50;
  ASSERT_NO_THROW(executions->Insert(e));
  executions->AppendEvent(ExecutionEvent{"x-1", 1, "execution_started", Json::object(), 51});
  auto found = executions->Find("x-1");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->via, "endpoint");
  EXPECT_EQ(executions->ListEvents("x-1").size(), 1u);
  e.id = "x-2";
  e.via = "carrier-pigeon";  // the CHECK still closes the set
  EXPECT_ANY_THROW(executions->Insert(e));
}

TEST_P(EndpointStoreTest, TheServeRowProvesWhichKeyStartedAnExecution) {
  auto reader = OpenAuditReader(*store_);
  AuditEvent served;
  served.timestamp_ms = 70;
  served.event = "endpoint.served";
  served.user_id = "u1";
  served.key_id = "dpk_key1";
  served.details = {{"endpoint_id", "e-1"}, {"execution_id", "x-1"}, {"outcome", "success"}};
  store_->Audit().AppendAudit(served);
  EXPECT_TRUE(reader->ServedBy("dpk_key1", "x-1"));
  EXPECT_FALSE(reader->ServedBy("dpk_key2", "x-1"));  // the owner's other key
  EXPECT_FALSE(reader->ServedBy("dpk_key1", "x-2"));
  EXPECT_FALSE(reader->ServedBy("", "x-1"));
}

DP_STORE_SUITE_ON_EACH_BACKEND(EndpointStoreTest);

}  // namespace
}  // namespace dp
