// AuditSink and the audit write queue over it, on both adapters.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "datapipelines/store/audit_write_queue.hpp"

#include "store_suite.hpp"

namespace dp {
namespace {

using namespace store_suite;

class AuditSinkTest : public StoreSuite {};

TEST_P(AuditSinkTest, AuditAppendAndListNewestFirst) {
  store().Audit().AppendAudit(MakeAudit("auth.login.succeeded", 100, {{"method", "password"}}));
  store().Audit().AppendAudit(
      MakeAudit("mcp.tool.called", 200, {{"tool", "pipelines_list"}, {"n", 3}}));
  store().Audit().AppendAudit(MakeAudit("auth.api_key.created", 300));

  auto all = store().Audit().ListAudit("", 10);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].event, "auth.api_key.created");
  EXPECT_EQ(all[1].event, "mcp.tool.called");
  EXPECT_EQ(all[2].event, "auth.login.succeeded");
  EXPECT_GT(all[0].id, all[1].id);
  EXPECT_GT(all[1].id, all[2].id);
  EXPECT_GT(all[2].id, 0);

  const AuditEvent& tool = all[1];
  EXPECT_EQ(tool.timestamp_ms, 200);
  EXPECT_EQ(tool.user_id, "u1");
  EXPECT_EQ(tool.key_id, "dpk_ABCDEFGHIJKL");
  EXPECT_EQ(tool.workspace_id, "w1");
  EXPECT_EQ(tool.correlation_id, "corr-200");
  EXPECT_EQ(tool.source_ip, "127.0.0.1");
  EXPECT_EQ(tool.details, (Json{{"tool", "pipelines_list"}, {"n", 3}}));
  EXPECT_EQ(all[0].details, Json::object());

  auto limited = store().Audit().ListAudit("", 2);
  ASSERT_EQ(limited.size(), 2u);
  EXPECT_EQ(limited[0].event, "auth.api_key.created");
  EXPECT_TRUE(store().Audit().ListAudit("", 0).empty());
}

TEST_P(AuditSinkTest, AuditSincePagesNewestFirst) {
  for (int i = 1; i <= 5; ++i) store().Audit().AppendAudit(MakeAudit("rest.write", i * 100));
  store().Audit().AppendAudit(MakeAudit("auth.login.succeeded", 600));
  auto page = store().Audit().ListAuditSince(200, "rest.", 0, 2);
  ASSERT_EQ(page.size(), 2u);
  EXPECT_EQ(page[0].timestamp_ms, 500);
  EXPECT_EQ(page[1].timestamp_ms, 400);
  auto next = store().Audit().ListAuditSince(200, "rest.", 2, 10);
  ASSERT_EQ(next.size(), 2u);  // 300 and 200; 100 is before since
  EXPECT_EQ(next[1].timestamp_ms, 200);
  EXPECT_EQ(store().Audit().ListAuditSince(0, "", 0, 100).size(), 6u);
  EXPECT_TRUE(store().Audit().ListAuditSince(700, "", 0, 100).empty());
  EXPECT_TRUE(store().Audit().ListAuditSince(0, "", 0, 0).empty());
}

TEST_P(AuditSinkTest, AuditPrefixFilterIsLiteralAndCaseSensitive) {
  store().Audit().AppendAudit(MakeAudit("auth.login.succeeded", 1));
  store().Audit().AppendAudit(MakeAudit("auth.api_key.created", 2));
  store().Audit().AppendAudit(
      MakeAudit("auth.apiXkey.created", 3));  // '_' must not act as wildcard
  store().Audit().AppendAudit(MakeAudit("mcp.tool.called", 4));

  auto auth = store().Audit().ListAudit("auth.", 10);
  ASSERT_EQ(auth.size(), 3u);
  EXPECT_EQ(auth[0].event, "auth.apiXkey.created");
  EXPECT_EQ(auth[2].event, "auth.login.succeeded");

  auto keys = store().Audit().ListAudit("auth.api_key", 10);
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].event, "auth.api_key.created");

  EXPECT_EQ(store().Audit().ListAudit("mcp.", 10).size(), 1u);
  EXPECT_TRUE(store().Audit().ListAudit("AUTH.", 10).empty());
  EXPECT_TRUE(store().Audit().ListAudit("nothing.", 10).empty());
  EXPECT_EQ(store().Audit().ListAudit("auth.", 1).size(), 1u);
}

TEST_P(AuditSinkTest, AuditKeepsEmptyFieldsEmpty) {
  AuditEvent e;
  e.timestamp_ms = 42;
  e.event = "auth.session.expired";
  store().Audit().AppendAudit(e);
  auto rows = store().Audit().ListAudit("", 5);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].user_id, "");
  EXPECT_EQ(rows[0].key_id, "");
  EXPECT_EQ(rows[0].workspace_id, "");
  EXPECT_EQ(rows[0].correlation_id, "");
  EXPECT_EQ(rows[0].source_ip, "");
  EXPECT_EQ(rows[0].timestamp_ms, 42);
}

TEST_P(AuditSinkTest, AuditBatchAppendsEveryRowInOrder) {
  std::vector<AuditEvent> batch;
  for (int i = 1; i <= 300; ++i) {
    batch.push_back(MakeAudit("mcp.tool.called", i, {{"tool", "pipelines_list"}, {"i", i}}));
  }
  batch[7].user_id.clear();  // an empty id is NULL in a batch as in a single append
  store().Audit().AppendAuditBatch(batch);
  auto rows = store().Audit().ListAudit("mcp.", 1000);
  ASSERT_EQ(rows.size(), 300u);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].timestamp_ms, static_cast<int64_t>(300 - i));  // newest first
    EXPECT_EQ(rows[i].details["i"], 300 - static_cast<int>(i));
  }
  EXPECT_EQ(rows[299 - 7].user_id, "");
  EXPECT_EQ(rows[0].correlation_id, "corr-300");
  store().Audit().AppendAuditBatch({});  // nothing to write is not an error
  EXPECT_EQ(store().Audit().ListAudit("", 1000).size(), 300u);
}

// The audit write queue over this backend: rows land in batches, Flush sees them, Stop drains,
// a full queue drops and counts instead of blocking the caller.
TEST_P(AuditSinkTest, AuditQueueWritesEveryRowInBatches) {
  AuditWriteQueue queue(store().Audit(), {.capacity = 1000, .max_batch = 16});
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&queue, t] {
      for (int i = 0; i < 25; ++i) EXPECT_TRUE(queue.Push(MakeAudit("queue.row", t * 100 + i)));
    });
  }
  for (auto& writer : writers) writer.join();
  queue.Flush();
  EXPECT_EQ(store().Audit().ListAudit("queue.", 1000).size(), 100u);
  EXPECT_GE(queue.Batches(), 7);  // at most 16 rows per INSERT
  EXPECT_LE(queue.Batches(), 100);
  EXPECT_EQ(queue.Dropped(), 0);
  EXPECT_EQ(queue.WriteFailures(), 0);
}

TEST_P(AuditSinkTest, AuditQueueStopWritesWhatIsQueued) {
  {
    AuditWriteQueue queue(store().Audit(), {.capacity = 1000, .max_batch = 8});
    for (int i = 0; i < 50; ++i) queue.Push(MakeAudit("queue.drained", i));
  }  // the destructor stops the queue: nothing queued is lost
  EXPECT_EQ(store().Audit().ListAudit("queue.drained", 1000).size(), 50u);
}

TEST_P(AuditSinkTest, AuditQueueDropsAndCountsWhenFullWithoutBlocking) {
  constexpr int kCapacity = 10;
  constexpr int kBatch = 4;
  constexpr int kPushed = 40;
  AuditWriteQueue queue(store().Audit(), {.capacity = kCapacity, .max_batch = kBatch});
  int accepted = 0;
  {
    // Another connection holds the audit table: the writer's INSERT waits behind it. Every
    // push below returns while it waits (this thread holds the lock: a blocking push would
    // never return), and at most one batch in flight plus a full queue are accepted.
    AuditTableLock lock = HoldAuditTable();
    for (int i = 0; i < kPushed; ++i) accepted += queue.Push(MakeAudit("queue.full", i)) ? 1 : 0;
  }
  EXPECT_LE(accepted, kCapacity + kBatch);
  EXPECT_EQ(queue.Dropped(), kPushed - accepted);
  queue.Flush();
  EXPECT_EQ(store().Audit().ListAudit("queue.full", 1000).size(),
            static_cast<std::size_t>(accepted));
  EXPECT_TRUE(queue.Push(MakeAudit("queue.full", 99)));  // room again once written
}

TEST_P(AuditSinkTest, AuditQueueCountsRowsTheStoreRefuses) {
  AuditWriteQueue queue(store().Audit(), {.capacity = 100, .max_batch = 16});
  ExecOnOtherConnection("DROP TABLE audit_log");
  for (int i = 0; i < 3; ++i) queue.Push(MakeAudit("queue.lost", i));
  queue.Flush();                        // settled: written or failed, never waited on forever
  EXPECT_EQ(queue.WriteFailures(), 3);  // the batch failed, then each row alone
  EXPECT_EQ(queue.Dropped(), 0);
}

DP_STORE_SUITE_ON_EACH_BACKEND(AuditSinkTest);

}  // namespace
}  // namespace dp
