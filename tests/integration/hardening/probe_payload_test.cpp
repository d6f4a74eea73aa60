// Issue 9, resource exhaustion: a probe's and a preview's answer is bounded in bytes (cells and
// the whole payload), the truncation reported in the payload as the row cap is; and one user's
// expensive calls are bounded in number (a queue with a bounded wait, then 429).
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/service/datasources/datasource_explorer.hpp"
#include "datapipelines/service/user_concurrency.hpp"
#include "integration/datasources/datasource_harness.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

class ProbePayload : public ::testing::Test {
 protected:
  void SetUp() override {
    meta_ = fs::temp_directory_path() / ("dp_payload_meta_" + Pid() + ".db");
    data_ = fs::temp_directory_path() / ("dp_payload_data_" + Pid() + ".db");
    fs::remove(meta_);
    fs::remove(data_);
    store_ = OpenMetadataStore("sqlite:" + meta_.string());
    store_->Migrate();
    store_->Workspaces().InsertWorkspace(Workspace{"ws-a", "alpha", "Alpha", "", 1});
    audit_ = std::make_unique<AuditLog>(store_->Audit());
    DatasourceExplorerOptions options;
    options.max_cell_bytes = 1000;
    options.max_payload_bytes = 20000;
    options.expensive = &expensive_;
    service_ = std::make_unique<DatasourceService>(store_->Datasources(), store_->Workspaces(),
                                                   *audit_, SecretBox(RandomBytes(32)));
    explorer_ = std::make_unique<DatasourceExplorer>(*service_, options);
    auto admin = MakeConnector(ConnectorConfig::FromUrl("sqlite:" + data_.string()));
    auto conn = admin->Open();
    conn->Execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, body TEXT)");
    conn->Execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40) "
        "INSERT INTO blobs SELECT i, hex(zeroblob(5000)) FROM n");
    service_->Create(AdminSession("ws-a"), Json{{"name", "blobs"},
                                                {"display_name", "blobs"},
                                                {"dialect", "SQLITE"},
                                                {"jdbc_url", "jdbc:sqlite:" + data_.string()},
                                                {"username", ""},
                                                {"password", "unused-secret"},
                                                {"workspace", "alpha"}});
  }
  void TearDown() override {
    explorer_.reset();
    service_.reset();
    store_.reset();
    fs::remove(meta_);
    fs::remove(data_);
  }

  UserConcurrency expensive_{2, 100};
  fs::path meta_, data_;
  std::unique_ptr<MetadataStore> store_;
  std::unique_ptr<AuditLog> audit_;
  std::unique_ptr<DatasourceService> service_;
  std::unique_ptr<DatasourceExplorer> explorer_;
};

TEST_F(ProbePayload, CellsAndPayloadAreCappedAndReported) {
  Json probe = explorer_->Probe(
      Key("ws-a"),
      ProbeRequest::FromJson(
          {{"name", "blobs"}, {"sql", "SELECT id, body FROM blobs ORDER BY id"}, {"limit", 500}}));
  EXPECT_EQ(probe["truncated"], true);
  EXPECT_EQ(probe["truncated_reason"], "bytes");
  EXPECT_EQ(probe["max_payload_bytes"].get<int>(), 20000);
  EXPECT_GT(probe["truncated_cells"].get<int>(), 0);
  EXPECT_LT(probe["rows"].size(), 40u);
  EXPECT_GT(probe["rows"].size(), 0u);
  for (const Json& row : probe["rows"]) EXPECT_LE(row["body"].get<std::string>().size(), 1000u);
  EXPECT_LE(probe["rows"].dump().size(), 20000u + 1000u);

  Json preview = explorer_->PreviewRows(
      Key("ws-a"),
      PreviewRequest::FromJson({{"name", "blobs"}, {"table", "blobs"}, {"limit", 50}}));
  EXPECT_EQ(preview["truncated"], true);
  EXPECT_EQ(preview["truncated_reason"], "bytes");
  EXPECT_GT(preview["truncated_cells"].get<int>(), 0);
}

TEST_F(ProbePayload, SmallAnswersAreUntouched) {
  Json probe = explorer_->Probe(
      Key("ws-a"), ProbeRequest::FromJson({{"name", "blobs"}, {"sql", "SELECT 1 AS one"}}));
  EXPECT_EQ(probe["truncated"], false);
  EXPECT_FALSE(probe.contains("truncated_reason"));
  EXPECT_FALSE(probe.contains("truncated_cells"));
}

TEST(UserConcurrency, OneUserWaitsBoundedlyOthersDoNot) {
  UserConcurrency limiter(2, 50);
  auto a1 = limiter.Acquire("a");
  auto a2 = limiter.Acquire("a");
  auto started = std::chrono::steady_clock::now();
  try {
    limiter.Acquire("a");
    ADD_FAILURE() << "a third permit for one user";
  } catch (const DomainError& e) {
    EXPECT_EQ(std::string(e.code().code), "rate_limit.exceeded");
    EXPECT_EQ(e.details()["reason"], "concurrency");
  }
  EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(45));
  { auto b = limiter.Acquire("b"); }  // another user is not affected
  // A waiter gets the slot as soon as one is released.
  auto waiter = std::async(std::launch::async, [&] { return limiter.Acquire("a"), true; });
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  { auto released = std::move(a1); }
  EXPECT_TRUE(waiter.get());
}

}  // namespace
}  // namespace dp
