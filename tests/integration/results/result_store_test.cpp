// One suite for both ResultStore adapters (DESIGN §6): memory (fake clock) and Redis (db 1).
#include <gtest/gtest.h>

#include <hiredis/hiredis.h>

#include <atomic>
#include <set>
#include <thread>

#include "datapipelines/redis/redis_url.hpp"
#include "datapipelines/results/memory_result_store.hpp"
#include "datapipelines/results/redis_result_store.hpp"
#include "datapipelines/util/crypto.hpp"
#include "results_test_support.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

StoredResult MakeResult(int rows, const std::string& tag = "a") {
  StoredResult result;
  result.schema = Json{{"columns", Json::array({Json{{"name", "id"}, {"type", "INTEGER"}},
                                                Json{{"name", "tag"}, {"type", "VARCHAR"}}})}};
  for (int i = 0; i < rows; ++i) result.rows.push_back(Json::array({i, tag}).dump());
  return result;
}

class ResultStoreTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "memory") {
      MemoryResultStoreOptions options;
      options.now = clock_.Now();
      options.sweep_on_timer = false;
      store_ = std::make_unique<MemoryResultStore>(options);
    } else {
      DP_REQUIRE_SERVICE_URL(url, "DP_TEST_REDIS_URL");
      store_ = std::make_unique<RedisResultStore>(RedisUrl::Parse(test::RedisDb1Url(url)));
    }
    prefix_ = "test-" + NewUuid() + "-";
  }

  void TearDown() override {
    for (const auto& key : used_) {
      if (store_) store_->Remove(key);
    }
  }

  std::string Key(const std::string& name) {
    used_.push_back(prefix_ + name);
    return used_.back();
  }

  // Memory moves its fake clock; Redis really waits.
  void Advance(milliseconds by) {
    if (GetParam() == "memory") {
      clock_.Advance(by);
    } else {
      std::this_thread::sleep_for(by);
    }
  }

  test::FakeSteadyClock clock_;
  std::unique_ptr<ResultStore> store_;
  std::string prefix_;
  std::vector<std::string> used_;
};

TEST_P(ResultStoreTest, PutThenGetWholePage) {
  std::string key = Key("whole");
  StoredResult result = MakeResult(5);
  store_->Put(key, result, seconds(60));
  auto page = store_->GetPage(key, 0, 100);
  ASSERT_TRUE(page.has_value());
  EXPECT_EQ(page->schema, result.schema);
  EXPECT_EQ(page->rows, result.rows);
  EXPECT_EQ(page->total_rows, 5);
  EXPECT_GE(page->ttl_remaining_seconds, 59);
  EXPECT_LE(page->ttl_remaining_seconds, 60);
  EXPECT_EQ(store_->BackendName(), GetParam());
}

TEST_P(ResultStoreTest, PagesSliceByOffsetAndLimit) {
  std::string key = Key("slice");
  StoredResult result = MakeResult(10);
  store_->Put(key, result, seconds(60));
  auto middle = store_->GetPage(key, 3, 4);
  ASSERT_TRUE(middle);
  EXPECT_EQ(middle->rows,
            std::vector<std::string>(result.rows.begin() + 3, result.rows.begin() + 7));
  EXPECT_EQ(middle->total_rows, 10);
  auto tail = store_->GetPage(key, 8, 5);  // limit runs past the end
  ASSERT_TRUE(tail);
  EXPECT_EQ(tail->rows, std::vector<std::string>(result.rows.begin() + 8, result.rows.end()));
  auto past_end = store_->GetPage(key, 10, 5);
  ASSERT_TRUE(past_end);
  EXPECT_TRUE(past_end->rows.empty());
  EXPECT_EQ(past_end->total_rows, 10);
  auto far_past = store_->GetPage(key, 1'000'000, INT64_MAX);
  ASSERT_TRUE(far_past);
  EXPECT_TRUE(far_past->rows.empty());
  auto zero_limit = store_->GetPage(key, 0, 0);  // counts and schema, no rows
  ASSERT_TRUE(zero_limit);
  EXPECT_TRUE(zero_limit->rows.empty());
  EXPECT_EQ(zero_limit->total_rows, 10);
  EXPECT_EQ(zero_limit->schema, result.schema);
}

TEST_P(ResultStoreTest, EmptyResultIsPresentWithNoRows) {
  std::string key = Key("empty");
  StoredResult result = MakeResult(0);
  store_->Put(key, result, seconds(60));
  auto page = store_->GetPage(key, 0, 10);
  ASSERT_TRUE(page.has_value());
  EXPECT_TRUE(page->rows.empty());
  EXPECT_EQ(page->total_rows, 0);
  EXPECT_EQ(page->schema, result.schema);
}

TEST_P(ResultStoreTest, AbsentKeyIsNullopt) {
  EXPECT_FALSE(store_->GetPage(Key("never"), 0, 10).has_value());
}

TEST_P(ResultStoreTest, PutReplacesSchemaRowsAndTtl) {
  std::string key = Key("replace");
  store_->Put(key, MakeResult(10, "old"), seconds(60));
  StoredResult replacement = MakeResult(3, "new");
  replacement.schema = Json{{"columns", Json::array({Json{{"name", "x"}}})}};
  store_->Put(key, replacement, seconds(300));
  auto page = store_->GetPage(key, 0, 100);
  ASSERT_TRUE(page);
  EXPECT_EQ(page->rows, replacement.rows);
  EXPECT_EQ(page->total_rows, 3);
  EXPECT_EQ(page->schema, replacement.schema);
  EXPECT_GE(page->ttl_remaining_seconds, 299);
  store_->Put(key, MakeResult(0), seconds(60));  // replacing with empty drops the old rows
  EXPECT_EQ(store_->GetPage(key, 0, 100)->total_rows, 0);
}

TEST_P(ResultStoreTest, ExpiresAfterTtl) {
  std::string key = Key("ttl");
  store_->Put(key, MakeResult(2), seconds(1));
  ASSERT_TRUE(store_->GetPage(key, 0, 10).has_value());
  Advance(milliseconds(1200));
  EXPECT_FALSE(store_->GetPage(key, 0, 10).has_value());
  EXPECT_FALSE(store_->Remove(key));
}

TEST_P(ResultStoreTest, TtlRemainingCountsDown) {
  std::string key = Key("countdown");
  store_->Put(key, MakeResult(1), seconds(3));
  Advance(milliseconds(1100));
  auto page = store_->GetPage(key, 0, 1);
  ASSERT_TRUE(page);
  EXPECT_EQ(page->ttl_remaining_seconds, 2);
}

TEST_P(ResultStoreTest, RemoveDeletes) {
  std::string key = Key("remove");
  store_->Put(key, MakeResult(4), seconds(60));
  EXPECT_TRUE(store_->Remove(key));
  EXPECT_FALSE(store_->GetPage(key, 0, 10).has_value());
  EXPECT_FALSE(store_->Remove(key));
}

TEST_P(ResultStoreTest, KeysAreIndependent) {
  std::string a = Key("a"), b = Key("b");
  store_->Put(a, MakeResult(1, "a"), seconds(60));
  store_->Put(b, MakeResult(2, "b"), seconds(60));
  store_->Remove(a);
  auto page = store_->GetPage(b, 0, 10);
  ASSERT_TRUE(page);
  EXPECT_EQ(page->rows, MakeResult(2, "b").rows);
}

TEST_P(ResultStoreTest, Pings) { EXPECT_TRUE(store_->Ping()); }

TEST_P(ResultStoreTest, RejectsInvalidArguments) {
  std::string key = Key("invalid");
  EXPECT_THROW(store_->Put(key, MakeResult(1), seconds(0)), std::invalid_argument);
  EXPECT_THROW(store_->GetPage(key, -1, 10), std::invalid_argument);
  EXPECT_THROW(store_->GetPage(key, 0, -1), std::invalid_argument);
}

TEST_P(ResultStoreTest, LargeResultRoundTrips) {
  std::string key = Key("large");
  StoredResult result = MakeResult(100'000, "large-row-payload");
  store_->Put(key, result, seconds(60));
  auto first = store_->GetPage(key, 0, 1000);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->total_rows, 100'000);
  EXPECT_EQ(first->rows, std::vector<std::string>(result.rows.begin(), result.rows.begin() + 1000));
  auto last = store_->GetPage(key, 99'990, 1000);
  ASSERT_TRUE(last);
  EXPECT_EQ(last->rows, std::vector<std::string>(result.rows.end() - 10, result.rows.end()));
  auto all = store_->GetPage(key, 0, 200'000);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->rows, result.rows);
}

TEST_P(ResultStoreTest, ConcurrentWritersAndReaders) {
  std::vector<std::string> keys;
  for (int i = 0; i < 8; ++i) keys.push_back(Key("concurrent-" + std::to_string(i)));
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) {
        StoredResult result = MakeResult(round + 1, "t" + std::to_string(t));
        store_->Put(keys[t], result, seconds(60));
        auto page = store_->GetPage(keys[t], 0, 1000);
        if (!page || page->rows != result.rows) ++mismatches;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
}

TEST_P(ResultStoreTest, AWriterPublishesNothingBeforeCommit) {
  std::string key = Key("streamed");
  store_->Put(key, MakeResult(2, "old"), seconds(60));
  StoredResult result = MakeResult(2'500, "new");  // several pushes with batches in flight
  auto writer = store_->OpenWriter(key, seconds(60));
  for (const auto& row : result.rows) writer->Append(row);
  auto before = store_->GetPage(key, 0, 10);
  ASSERT_TRUE(before);
  EXPECT_EQ(before->total_rows, 2) << "readers saw a result still being written";
  writer->Commit(result.schema);
  auto after = store_->GetPage(key, 0, 3'000);
  ASSERT_TRUE(after);
  EXPECT_EQ(after->rows, result.rows);
  EXPECT_EQ(after->schema, result.schema);
}

TEST_P(ResultStoreTest, AnAbandonedWriterLeavesTheOldResult) {
  std::string key = Key("abandoned");
  store_->Put(key, MakeResult(3, "old"), seconds(60));
  {
    auto writer = store_->OpenWriter(key, seconds(60));
    for (const auto& row : MakeResult(1'500, "partial").rows) writer->Append(row);
  }  // destroyed uncommitted: the node failed mid-drain
  auto page = store_->GetPage(key, 0, 10);
  ASSERT_TRUE(page);
  EXPECT_EQ(page->rows, MakeResult(3, "old").rows);
  // The next writer of the key starts clean (no partial rows prefixed to its own).
  StoredResult next = MakeResult(1'200, "next");
  store_->Put(key, next, seconds(60));
  EXPECT_EQ(store_->GetPage(key, 0, 2'000)->rows, next.rows);
}

INSTANTIATE_TEST_SUITE_P(Backends, ResultStoreTest, ::testing::Values("memory", "redis"),
                         [](const auto& info) { return info.param; });

// --- memory only -------------------------------------------------------------------------

TEST(MemoryResultStoreTest, RefusesAPutOverTheCap) {
  MemoryResultStoreOptions options;
  options.max_bytes = 64 * 1024;
  MemoryResultStore store(options);
  StoredResult big = MakeResult(5000);
  try {
    store.Put("big", big, seconds(60));
    FAIL() << "a result over the cap was accepted";
  } catch (const ResultStoreUnavailable& error) {
    EXPECT_NE(std::string(error.what()).find("memory result store is full"), std::string::npos)
        << error.what();
  }
  EXPECT_FALSE(store.GetPage("big", 0, 1).has_value());
  EXPECT_EQ(store.used_bytes(), 0u);
}

TEST(MemoryResultStoreTest, AWriterIsRefusedAsSoonAsItOutgrowsTheCap) {
  MemoryResultStoreOptions options;
  options.max_bytes = 64 * 1024;
  MemoryResultStore store(options);
  auto writer = store.OpenWriter("big", seconds(60));
  int appended = 0;
  EXPECT_THROW(
      {
        for (const auto& row : MakeResult(5000).rows) {
          writer->Append(row);
          ++appended;
        }
      },
      ResultStoreUnavailable);
  EXPECT_LT(appended, 5000) << "the whole result was buffered before the refusal";
  EXPECT_FALSE(store.GetPage("big", 0, 1).has_value());
}

// What one result of `result`'s rows costs the store under a key of two characters.
std::size_t ChargedBytes(const StoredResult& result) {
  MemoryResultStore probe(MemoryResultStoreOptions{.sweep_on_timer = false});
  probe.Put("k0", result, seconds(60));
  return probe.used_bytes();
}

TEST(MemoryResultStoreTest, EvictsExpiredEntriesToMakeRoom) {
  test::FakeSteadyClock clock;
  MemoryResultStoreOptions options;
  options.now = clock.Now();
  options.sweep_on_timer = false;
  StoredResult result = MakeResult(200);
  std::size_t one = ChargedBytes(result);
  options.max_bytes = one * 2 + one / 2;  // room for two
  MemoryResultStore store(options);
  store.Put("k1", result, seconds(1));
  store.Put("k2", result, seconds(60));
  EXPECT_THROW(store.Put("k3", result, seconds(60)), ResultStoreUnavailable);
  EXPECT_TRUE(store.GetPage("k1", 0, 1).has_value());  // the refused Put kept the others
  clock.Advance(milliseconds(1001));
  store.Put("k3", result, seconds(60));  // k1 expired: evicted to make room
  EXPECT_FALSE(store.GetPage("k1", 0, 1).has_value());
  EXPECT_TRUE(store.GetPage("k2", 0, 1).has_value());
  EXPECT_TRUE(store.GetPage("k3", 0, 1).has_value());
  EXPECT_EQ(store.used_bytes(), one * 2);
}

// While the new copy is written both copies are in memory, and both are counted; once it is
// published only the new one is.
TEST(MemoryResultStoreTest, ReplacingAccountsOnlyTheNewSize) {
  MemoryResultStoreOptions options;
  options.sweep_on_timer = false;
  StoredResult result = MakeResult(200);
  std::size_t one = ChargedBytes(result);
  options.max_bytes = 2 * one + one / 2;
  MemoryResultStore store(options);
  store.Put("k0", result, seconds(60));
  store.Put("k0", result, seconds(60));
  EXPECT_EQ(store.used_bytes(), one);
  store.Put("k0", result, seconds(60));
  EXPECT_EQ(store.used_bytes(), one);
  EXPECT_TRUE(store.Remove("k0"));
  EXPECT_EQ(store.used_bytes(), 0u);
}

TEST(MemoryResultStoreTest, SweepsExpiredEntriesOnPut) {
  test::FakeSteadyClock clock;
  MemoryResultStoreOptions options;
  options.now = clock.Now();
  options.sweep_interval = milliseconds(5000);
  options.sweep_on_timer = false;
  MemoryResultStore store(options);
  for (int i = 0; i < 10; ++i) store.Put("old-" + std::to_string(i), MakeResult(10), seconds(1));
  std::size_t after_old = store.used_bytes();
  clock.Advance(milliseconds(6000));
  store.Put("fresh", MakeResult(10), seconds(60));  // never read the old ones: sweep frees them
  EXPECT_LT(store.used_bytes(), after_old / 5);
}

// The cap counts what the rows really cost: a result of many short rows is charged at least
// each row's string object, not only its characters.
TEST(MemoryResultStoreTest, ChargesEachRowsRealCost) {
  StoredResult tiny = MakeResult(1000);  // rows short enough to live inside the string object
  EXPECT_GE(ChargedBytes(tiny), tiny.rows.size() * sizeof(std::string));
  StoredResult wide = MakeResult(1000, std::string(40, 'w'));  // each row has a heap block
  std::size_t characters = 0;
  for (const auto& row : wide.rows) characters += row.size();
  EXPECT_GE(ChargedBytes(wide), characters + wide.rows.size() * (sizeof(std::string) + 8));
}

// Full of live results, the store refuses a new writer at once and keeps serving reads.
TEST(MemoryResultStoreTest, AFullStoreRefusesANewWriterAtOnceAndStillServesReads) {
  StoredResult result = MakeResult(200);
  MemoryResultStore store(
      MemoryResultStoreOptions{.max_bytes = ChargedBytes(result) + 64, .sweep_on_timer = false});
  store.Put("k1", result, seconds(60));
  EXPECT_THROW(store.OpenWriter("k2", seconds(60)), ResultStoreUnavailable);
  EXPECT_EQ(store.GetPage("k1", 0, 5)->rows.size(), 5u);
}

// A writer dropped unfinished (its execution failed) gives its reservation back.
TEST(MemoryResultStoreTest, AnAbandonedWriterGivesItsReservationBack) {
  MemoryResultStore store(MemoryResultStoreOptions{.max_bytes = 1 << 20, .sweep_on_timer = false});
  {
    auto writer = store.OpenWriter("k", seconds(60));
    for (const auto& row : MakeResult(500).rows) writer->Append(row);
    EXPECT_GT(store.CurrentUsage()->bytes, 0);
  }
  EXPECT_EQ(store.CurrentUsage()->bytes, 0);
  store.Put("k", MakeResult(500), seconds(60));  // the whole cap is free again
}

// Idle, nothing written or read: the timer still drops expired results.
TEST(MemoryResultStoreTest, TheTimerSweepsExpiredResultsWhileIdle) {
  MemoryResultStoreOptions options;
  options.sweep_interval = milliseconds(50);
  MemoryResultStore store(options);
  store.Put("k", MakeResult(100), seconds(1));
  ASSERT_GT(store.used_bytes(), 0u);
  const auto deadline = std::chrono::steady_clock::now() + seconds(5);
  while (store.used_bytes() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(20));
  }
  EXPECT_EQ(store.used_bytes(), 0u);
}

// --- redis only --------------------------------------------------------------------------

class RedisResultStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DP_REQUIRE_SERVICE_URL(url, "DP_TEST_REDIS_URL");
    url_ = RedisUrl::Parse(test::RedisDb1Url(url));
  }
  RedisUrl url_;
};

TEST_F(RedisResultStoreTest, WritesTheDocumentedLayoutWithTtlOnBothKeys) {
  RedisResultStore store(url_);
  std::string key = "test-" + NewUuid();
  StoredResult result = MakeResult(3);
  store.Put(key, result, seconds(30));
  RedisConnection raw(url_, {});
  auto type_of = [&](const std::string& k) {
    RedisReply reply = raw.Command({"TYPE", k});
    return std::string(reply->str, reply->len);
  };
  EXPECT_EQ(type_of("dp:result:" + key + ":schema"), "string");
  EXPECT_EQ(type_of("dp:result:" + key + ":rows"), "list");
  for (const char* suffix : {":schema", ":rows"}) {
    long long pttl = raw.Command({"PTTL", "dp:result:" + key + suffix})->integer;
    EXPECT_GT(pttl, 28'000) << suffix;
    EXPECT_LE(pttl, 30'000) << suffix;
  }
  RedisReply schema = raw.Command({"GET", "dp:result:" + key + ":schema"});
  EXPECT_EQ(Json::parse(std::string(schema->str, schema->len)), result.schema);
  EXPECT_EQ(raw.Command({"LLEN", "dp:result:" + key + ":rows"})->integer, 3);
  store.Remove(key);
}

// Redis closing every client (what a restart does) must not fail the next result write: the
// pooled connection is found closed and replaced before the rows are sent.
TEST_F(RedisResultStoreTest, AWriteAfterRedisDroppedItsClientsSucceeds) {
  RedisResultStore store(url_);
  StoredResult result = MakeResult(50);
  store.Put("test-" + NewUuid(), result, seconds(30));  // leaves a pooled connection idle
  RedisConnection raw(url_, {});
  ASSERT_GE(raw.Command({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"})->integer, 1);
  const std::string key = "test-" + NewUuid();
  store.Put(key, result, seconds(30));
  EXPECT_EQ(store.GetPage(key, 0, 100)->rows, result.rows);
  store.Remove(key);
}

TEST_F(RedisResultStoreTest, AStagingListLivesOnlyWhileItsWriterStreams) {
  RedisResultStore store(url_, RedisResultStoreOptions{{}, 100});
  std::string key = "test-" + NewUuid();
  const std::string staging = "dp:result:" + key + ":rows:writing";
  RedisConnection raw(url_, {});
  {
    auto writer = store.OpenWriter(key, seconds(30));
    for (const auto& row : MakeResult(1'000).rows) writer->Append(row);
    long long pttl = raw.Command({"PTTL", staging})->integer;
    EXPECT_GT(pttl, 0) << "a staging list without a TTL outlives a writer that dies";
    writer->Commit(MakeResult(0).schema);
  }
  EXPECT_EQ(raw.Command({"EXISTS", staging})->integer, 0);
  {
    auto writer = store.OpenWriter(key, seconds(30));
    for (const auto& row : MakeResult(500).rows) writer->Append(row);
  }
  EXPECT_EQ(raw.Command({"EXISTS", staging})->integer, 0) << "an abandoned staging list stayed";
  EXPECT_EQ(raw.Command({"LLEN", "dp:result:" + key + ":rows"})->integer, 1'000);
  store.Remove(key);
}

TEST_F(RedisResultStoreTest, UnreachableServerIsUnavailableWithoutLeakingThePassword) {
  RedisResultStore store(RedisUrl::Parse(test::kClosedRedisUrl));
  EXPECT_FALSE(store.Ping());
  try {
    store.Put("k", MakeResult(1), seconds(10));
    FAIL() << "Put succeeded against a closed port";
  } catch (const ResultStoreUnavailable& error) {
    std::string message = error.what();
    EXPECT_EQ(message.find("s3cret-pw"), std::string::npos) << message;
    EXPECT_NE(message.find("127.0.0.1:1"), std::string::npos) << message;
  }
  EXPECT_THROW(store.GetPage("k", 0, 1), ResultStoreUnavailable);
  EXPECT_THROW(store.Remove("k"), ResultStoreUnavailable);
}

TEST_F(RedisResultStoreTest, WrongPasswordIsUnavailableWithoutLeakingIt) {
  RedisUrl bad = url_;
  bad.password = "wrong-s3cret";
  RedisResultStore store(bad);
  try {
    store.GetPage("k", 0, 1);
    // A server without a password may accept AUTH on some versions: then nothing to check.
  } catch (const ResultStoreUnavailable& error) {
    EXPECT_EQ(std::string(error.what()).find("wrong-s3cret"), std::string::npos) << error.what();
  }
}

TEST_F(RedisResultStoreTest, PoolReconnectsOnceAfterTheServerDropsTheConnection) {
  RedisPoolOptions options;
  options.size = 1;
  RedisPool pool(url_, options);
  auto client_id = [&] {
    return pool.Run([](RedisConnection& c) { return c.Command({"CLIENT", "ID"})->integer; });
  };
  long long first = client_id();
  EXPECT_EQ(client_id(), first);  // the idle connection is reused
  RedisConnection admin(url_, {});
  ASSERT_EQ(admin.Command({"CLIENT", "KILL", "ID", std::to_string(first)})->integer, 1);
  long long second = client_id();  // broken on first use, reconnected, retried
  EXPECT_NE(second, first);
}

TEST_F(RedisResultStoreTest, PoolBoundsConcurrentConnections) {
  RedisPoolOptions options;
  options.size = 2;
  RedisPool pool(url_, options);
  std::mutex mutex;
  std::set<long long> ids;
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i) {
        long long id = pool.Run([](RedisConnection& c) {
          return c.Command({"CLIENT", "ID"})->integer;
        });
        std::lock_guard lock(mutex);
        ids.insert(id);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_GE(ids.size(), 1u);
  EXPECT_LE(ids.size(), 2u);
}

}  // namespace
}  // namespace dp
