// Tempdb lifecycle, identifier safety, memory bound, rollback, queries, cancel, concurrency.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>

#include "datapipelines/connectors/connection.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "tempdb_test_support.hpp"

namespace dp {
namespace {

using namespace tempdb_test;
using namespace std::chrono_literals;

const std::vector<ColumnSchema> kOrders{Column("id", CanonicalType::kInteger),
                                        Column("name", CanonicalType::kString)};

std::vector<Cells> OrderRows(int count) {
  std::vector<Cells> rows;
  for (int i = 1; i <= count; ++i) rows.push_back({std::to_string(i), "name" + std::to_string(i)});
  return rows;
}

BindMap Binds(std::initializer_list<std::pair<std::string, BindValue>> entries) {
  BindMap binds;
  for (const auto& [name, value] : entries) binds[name] = value;
  return binds;
}

// The engine-neutral cases run on both tempdb engines (settings.tempdb.engine SQLITE and
// DUCKDB); the SQLite page-budget and message cases below are the SQLite engine's own.
class TempdbEngineTest : public ::testing::TestWithParam<TempdbEngine> {
 protected:
  TempdbOptions Options(TempdbOptions options = {}) const {
    options.engine = GetParam();
    return options;
  }
};

INSTANTIATE_TEST_SUITE_P(Engines, TempdbEngineTest,
                         ::testing::Values(TempdbEngine::kSqlite, TempdbEngine::kDuckdb),
                         [](const auto& info) {
                           return info.param == TempdbEngine::kSqlite ? "sqlite" : "duckdb";
                         });

// ---- identifier safety (staging.md §4.5) ----------------------------------------------

struct BadName {
  std::string label;
  std::vector<std::string> names;
  std::string column;  // the one refused
  int ordinal;
};

class TempdbColumnNameTest : public ::testing::TestWithParam<BadName> {};

TEST_P(TempdbColumnNameTest, RefusedNeverSanitized) {
  const BadName& c = GetParam();
  std::vector<ColumnSchema> columns;
  for (const auto& name : c.names) columns.push_back(Column(name, CanonicalType::kString));
  Tempdb db;
  DomainError error = Refusal([&] { db.CreateTable("stg", columns); });
  EXPECT_EQ(error.code(), errc::kStagingInvalidColumnName);
  EXPECT_EQ(error.details()["table"], "stg");
  EXPECT_EQ(error.details()["column"], c.column);
  EXPECT_EQ(error.details()["ordinal"], c.ordinal);
  EXPECT_FALSE(error.details()["reason"].get<std::string>().empty());
  EXPECT_FALSE(db.HasTable("stg"));
}

INSTANTIATE_TEST_SUITE_P(
    Refusals, TempdbColumnNameTest,
    ::testing::Values(
        BadName{"empty", {"ok", ""}, "", 2}, BadName{"leading_digit", {"1abc"}, "1abc", 1},
        BadName{"dash", {"a-b"}, "a-b", 1}, BadName{"space", {"a b"}, "a b", 1},
        BadName{
            "quote_injection", {"x\" TEXT); DROP TABLE y; --"}, "x\" TEXT); DROP TABLE y; --", 1},
        BadName{"non_ascii", {"naïve"}, "naïve", 1},
        BadName{"too_long", {std::string(64, 'a')}, std::string(64, 'a'), 1},
        BadName{"duplicate_case_insensitive", {"total", "id", "TOTAL"}, "TOTAL", 3},
        BadName{"duplicate_exact", {"id", "id"}, "id", 2}),
    [](const auto& info) { return info.param.label; });

TEST_P(TempdbEngineTest, ValidNamesAreStagedExactlyAsWritten) {
  Tempdb db(Options());
  std::vector<ColumnSchema> columns{Column("_x", CanonicalType::kInteger),
                                    Column("MixedCase", CanonicalType::kInteger),
                                    Column(std::string(63, 'z'), CanonicalType::kInteger)};
  Stage(db, "stg", columns, {{"1", "2", "3"}});
  ReadBack back = Read(db, "SELECT * FROM stg");
  ASSERT_EQ(back.columns.size(), 3u);
  EXPECT_EQ(back.columns[1].name, "MixedCase");
  EXPECT_EQ(back.columns[2].name, std::string(63, 'z'));
}

TEST_P(TempdbEngineTest, TableStagedTwiceIsRefused) {
  Tempdb db(Options());
  Stage(db, "stg_orders", kOrders, OrderRows(2));
  for (const char* again : {"stg_orders", "STG_ORDERS"}) {
    DomainError error = Refusal([&] { db.CreateTable(again, kOrders); });
    EXPECT_EQ(error.code(), errc::kStagingTableAlreadyExists);
    EXPECT_EQ(error.details()["table"], again);
  }
  // The first table is untouched.
  EXPECT_EQ(Read(db, "SELECT count(*) FROM stg_orders").text, (std::vector<Cells>{{"2"}}));
}

// ---- writer lifecycle -------------------------------------------------------------------

TEST_P(TempdbEngineTest, FinishReturnsRowsAndEmptyResultsStageAnEmptyTable) {
  Tempdb db(Options({.insert_batch_rows = 7}));
  EXPECT_EQ(Stage(db, "many", kOrders, OrderRows(50)), 50);
  EXPECT_EQ(Read(db, "SELECT count(*), sum(id) FROM many").text,
            (std::vector<Cells>{{"50", "1275"}}));
  EXPECT_EQ(Stage(db, "none", kOrders, {}), 0);
  EXPECT_TRUE(db.HasTable("none"));
}

TEST_P(TempdbEngineTest, UnfinishedWriterDropsItsTable) {
  Tempdb db(Options({.insert_batch_rows = 10}));
  {
    auto writer = db.CreateTable("partial", kOrders);
    AppendRows(writer, kOrders, OrderRows(25));  // two batches already inserted
    EXPECT_TRUE(db.HasTable("partial"));
  }
  EXPECT_FALSE(db.HasTable("partial"));
  // The name is free again: a retried node can stage it.
  EXPECT_EQ(Stage(db, "partial", kOrders, OrderRows(3)), 3);
}

TEST_P(TempdbEngineTest, WriterFailingMidwayLeavesNothingBehind) {
  Tempdb db(Options({.insert_batch_rows = 2}));
  std::vector<ColumnSchema> columns{Column("n", CanonicalType::kInteger)};
  try {
    auto writer = db.CreateTable("t", columns);
    AppendRows(writer, columns, {{"1"}, {"2"}, {"3"}, {"99999999999999999999"}});
    FAIL() << "expected value_overflow";
  } catch (const DomainError& error) {
    EXPECT_EQ(error.code(), errc::kStagingValueOverflow);
  }
  EXPECT_FALSE(db.HasTable("t"));
}

// ---- memory bound ------------------------------------------------------------------------

TEST(TempdbTest, StagingBeyondTheBudgetFailsWithMemoryLimitExceeded) {
  Tempdb db(TempdbOptions{.max_memory_bytes = 256 * 1024, .insert_batch_rows = 50});
  std::vector<ColumnSchema> columns{Column("blob", CanonicalType::kString)};
  std::vector<Cells> rows(2000, Cells{std::string(1000, 'x')});  // ~2 MB
  DomainError error = Refusal([&] { Stage(db, "big", columns, rows); });
  EXPECT_EQ(error.code(), errc::kStagingMemoryLimitExceeded);
  EXPECT_EQ(error.details()["limit_bytes"], 256 * 1024);
  EXPECT_EQ(error.details()["table"], "big");
  EXPECT_FALSE(db.HasTable("big"));
  EXPECT_LE(db.memory_used_bytes(), 256 * 1024);
  // The database stays usable for what fits.
  EXPECT_EQ(Stage(db, "small", columns, {{"y"}}), 1);
}

TEST(TempdbTest, AStatementOutgrowingTheBudgetFailsToo) {
  Tempdb db(TempdbOptions{.max_memory_bytes = 256 * 1024});
  db.Execute("CREATE TABLE filler (s TEXT)");
  DomainError error = Refusal([&] {
    db.Execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) "
        "INSERT INTO filler SELECT printf('%.500c', 'x') FROM n");
  });
  EXPECT_EQ(error.code(), errc::kStagingMemoryLimitExceeded);
  EXPECT_EQ(error.details()["limit_bytes"], 256 * 1024);
}

// SQLite out of memory at open (its process-wide hard heap limit, the same failure a
// starved process meets): the execution gets the catalogued creation failure, not a crash.
TEST(TempdbTest, ADatabaseThatCannotBeOpenedIsACreationFailure) {
  const sqlite3_int64 previous = sqlite3_hard_heap_limit64(-1);
  sqlite3_hard_heap_limit64(sqlite3_memory_used() + 1);
  std::optional<DomainError> error;
  try {
    Tempdb db;
  } catch (const DomainError& e) {
    error = e;
  }
  sqlite3_hard_heap_limit64(previous);
  ASSERT_TRUE(error.has_value()) << "the tempdb opened past the heap limit";
  EXPECT_EQ(error->code(), errc::kStagingCreationFailed);
  EXPECT_EQ(error->details()["engine"], "sqlite");
  EXPECT_FALSE(error->details()["reason"].get<std::string>().empty());
  // With memory back, the next execution's tempdb opens.
  Tempdb db;
  EXPECT_EQ(Stage(db, "t", kOrders, OrderRows(1)), 1);
}

TEST(TempdbTest, AuthorSqlCannotLiftTheBudget) {
  Tempdb db(TempdbOptions{.max_memory_bytes = 256 * 1024});
  // The hardening authorizer refuses the PRAGMA outright; the budget would hold anyway.
  EXPECT_THROW(db.Execute("PRAGMA max_page_count = 1000000"), DomainError);
  std::vector<ColumnSchema> columns{Column("s", CanonicalType::kString)};
  std::vector<Cells> rows(2000, Cells{std::string(1000, 'x')});
  EXPECT_EQ(Refusal([&] { Stage(db, "big", columns, rows); }).code(),
            errc::kStagingMemoryLimitExceeded);
}

TEST_P(TempdbEngineTest, MemoryUsedIsMeasuredFromTheDatabase) {
  Tempdb db(Options());
  int64_t empty = db.memory_used_bytes();
  std::vector<ColumnSchema> columns{Column("s", CanonicalType::kString)};
  Stage(db, "t", columns, std::vector<Cells>(1000, Cells{std::string(1000, 'x')}));
  EXPECT_GT(db.memory_used_bytes(), empty + 1000 * 1000);
}

// ---- queries and statements ------------------------------------------------------------

TEST_P(TempdbEngineTest, QueryBindsNamedParameters) {
  Tempdb db(Options());
  Stage(db, "stg", kOrders, OrderRows(10));
  BindMap binds = Binds({{"lo", BindValue{CanonicalType::kInteger, "8"}},
                         {"name", BindValue{CanonicalType::kString, "name9"}}});
  ReadBack back = Read(db, "SELECT id, name FROM stg WHERE id >= :lo AND name <> :name", binds);
  EXPECT_EQ(back.text, (std::vector<Cells>{{"8", "name8"}, {"10", "name10"}}));
  EXPECT_EQ(back.columns[0].mapping.type, CanonicalType::kInteger);
}

TEST_P(TempdbEngineTest, QueryReportsColumnsAndHonoursMaxRows) {
  Tempdb db(Options());
  Stage(db, "stg", kOrders, OrderRows(10));
  std::vector<ColumnSchema> reported;
  QueryOptions options;
  options.max_rows = 3;
  int rows = 0;
  QueryResult result = db.Query(
      "SELECT * FROM stg", {}, options, [&](const RowView&) { return ++rows, true; },
      [&](const std::vector<ColumnSchema>& columns) { reported = columns; });
  EXPECT_EQ(rows, 3);
  EXPECT_TRUE(result.truncated);
  ASSERT_EQ(reported.size(), 2u);
  EXPECT_EQ(reported[1].name, "name");
}

TEST(TempdbTest, SqlErrorIsQueryExecutionFailedWithTheSqliteMessage) {
  Tempdb db;
  Stage(db, "stg", kOrders, {{"1", "secret-row-value"}});
  DomainError missing = Refusal([&] { Read(db, "SELECT * FROM nope"); });
  EXPECT_EQ(missing.code(), errc::kNodeQueryFailed);
  EXPECT_NE(missing.details()["driver_message"].get<std::string>().find("no such table: nope"),
            std::string::npos);
  DomainError cast = Refusal([&] { Read(db, "SELECT name FROM stg WHERE json(name)"); });
  EXPECT_EQ(cast.code(), errc::kNodeQueryFailed);
  EXPECT_EQ(cast.ToJson().dump().find("secret-row-value"), std::string::npos);
}

TEST_P(TempdbEngineTest, ExecuteRunsDdlAndDml) {
  Tempdb db(Options());
  EXPECT_EQ(db.Execute("CREATE TABLE int_t (id INTEGER, label TEXT)"), 0);
  EXPECT_EQ(db.Execute("INSERT INTO int_t VALUES (1, 'a'), (2, 'b'), (3, 'c')"), 3);
  EXPECT_EQ(db.Execute("CREATE INDEX int_t_id ON int_t (id)"), 0);  // not the last DML's 3
  EXPECT_EQ(db.Execute("UPDATE int_t SET label = :l WHERE id >= :lo",
                       Binds({{"l", BindValue{CanonicalType::kString, "z"}},
                              {"lo", BindValue{CanonicalType::kInteger, "2"}}})),
            2);
  EXPECT_EQ(db.Execute("DELETE FROM int_t WHERE id = 1"), 1);
  EXPECT_TRUE(db.HasTable("int_t"));
  EXPECT_EQ(db.Execute("DROP TABLE int_t"), 0);
  EXPECT_FALSE(db.HasTable("int_t"));
  EXPECT_EQ(Refusal([&] { db.Execute("CREATE TABLE"); }).code(), errc::kNodeQueryFailed);
}

TEST_P(TempdbEngineTest, TempdbToTempdbStagingInsideAQueryCallback) {
  Tempdb db(Options({.insert_batch_rows = 16}));
  Stage(db, "stg", kOrders, OrderRows(100));
  std::optional<Tempdb::TableWriter> writer;
  std::vector<ColumnSchema> derived;
  db.Query(
      "SELECT id * 2 AS doubled, name FROM stg WHERE id % 2 = 0", {}, QueryOptions{},
      [&](const RowView& row) {
        writer->Append(row);
        return true;
      },
      [&](const std::vector<ColumnSchema>& columns) {
        derived = columns;
        writer.emplace(db.CreateTable("int_doubled", columns));
      });
  EXPECT_EQ(writer->Finish(), 50);
  EXPECT_EQ(Read(db, "SELECT count(*), max(doubled) FROM int_doubled").text,
            (std::vector<Cells>{{"50", "200"}}));
}

TEST_P(TempdbEngineTest, WriterAbandonedInsideAQueryCallbackIsDroppedAfterwards) {
  Tempdb db(Options({.insert_batch_rows = 4}));
  Stage(db, "stg", kOrders, OrderRows(20));
  db.Query("SELECT * FROM stg", {}, QueryOptions{}, [&](const RowView& row) {
    if (row.text(0) != "1") return false;
    auto writer = db.CreateTable("doomed", kOrders);
    AppendRows(writer, kOrders, OrderRows(10));
    return true;  // the writer dies unfinished while the SELECT is still running
  });
  Read(db, "SELECT 1");  // nothing running now: the pending DROP happens
  EXPECT_FALSE(db.HasTable("doomed"));
  EXPECT_EQ(Stage(db, "doomed", kOrders, OrderRows(2)), 2);
}

TEST_P(TempdbEngineTest, CancelInterruptsALongQueryFromAnotherThread) {
  Tempdb db(Options());
  std::atomic<bool> done{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(100ms);
    while (!done) {  // repeated: an interrupt before the statement starts is a no-op
      db.Cancel();
      std::this_thread::sleep_for(20ms);
    }
  });
  auto start = std::chrono::steady_clock::now();
  DomainError error = Refusal([&] {
    Read(db,
         "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
         "SELECT count(*) FROM n");
  });
  done = true;
  canceller.join();
  EXPECT_EQ(error.code(), errc::kNodeQueryFailed);
  EXPECT_EQ(error.details()["reason"], "cancelled");
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  // The next statement runs normally.
  EXPECT_EQ(Read(db, "SELECT 1").text, (std::vector<Cells>{{"1"}}));
}

TEST_P(TempdbEngineTest, TwoThreadsStageAndQueryWithoutLocking) {
  Tempdb db(Options({.insert_batch_rows = 100}));
  Stage(db, "shared", kOrders, OrderRows(1000));
  auto worker = [&](const std::string& table, std::atomic<int>& failures) {
    try {
      for (int round = 0; round < 5; ++round) {
        std::string name = table + "_" + std::to_string(round);
        auto writer = db.CreateTable(name, kOrders);
        for (int i = 0; i < 10; ++i) {
          AppendRows(writer, kOrders, OrderRows(200));
          Read(db, "SELECT count(*) FROM shared WHERE id > 500");
        }
        EXPECT_EQ(writer.Finish(), 2000);
        EXPECT_EQ(Read(db, "SELECT count(*) FROM " + name).text, (std::vector<Cells>{{"2000"}}));
        db.Execute("DELETE FROM " + name + " WHERE id > 100");
      }
    } catch (const std::exception& error) {
      ++failures;
      ADD_FAILURE() << table << ": " << error.what();
    }
  };
  std::atomic<int> failures{0};
  std::thread a(worker, "a", std::ref(failures));
  std::thread b(worker, "b", std::ref(failures));
  a.join();
  b.join();
  EXPECT_EQ(failures, 0);
}

// ---- isolation and destruction -------------------------------------------------------------

TEST(TempdbTest, EachTempdbIsPrivateAndDestructionFreesIt) {
  {
    Tempdb first;
    Stage(first, "stg_orders", kOrders, OrderRows(3));
    Tempdb other;
    EXPECT_FALSE(other.HasTable("stg_orders"));
    EXPECT_EQ(Read(other, "SELECT count(*) FROM sqlite_master").text, (std::vector<Cells>{{"0"}}));
  }
  Tempdb second;
  EXPECT_FALSE(second.HasTable("stg_orders"));
  EXPECT_EQ(Stage(second, "stg_orders", kOrders, OrderRows(1)), 1);
}

TEST_P(TempdbEngineTest, WithSessionRunsOnTheSameDatabase) {
  Tempdb db(Options());
  Stage(db, "stg", kOrders, OrderRows(4));
  int64_t count = 0;
  db.WithSession([&](Connection& conn) {
    conn.Query("SELECT count(*) FROM stg", {}, QueryOptions{}, [&](const RowView& row) {
      count = std::stoll(std::string(*row.text(0)));
      return true;
    });
  });
  EXPECT_EQ(count, 4);
}

}  // namespace
}  // namespace dp

namespace dp {
namespace {

using namespace tempdb_test;

// ---- the DuckDB engine's own bounds and hardening -------------------------------------------

TEST(TempdbDuckdbTest, StagingBeyondTheBudgetFailsWithMemoryLimitExceeded) {
  Tempdb db(TempdbOptions{.engine = TempdbEngine::kDuckdb, .max_memory_bytes = 16 << 20});
  EXPECT_STREQ(db.engine_name(), "duckdb");
  std::vector<ColumnSchema> columns{Column("blob", CanonicalType::kString)};
  std::vector<Cells> rows;
  for (int i = 0; i < 40000; ++i) rows.push_back({std::to_string(i) + std::string(2000, 'x')});
  DomainError error = Refusal([&] { Stage(db, "big", columns, rows); });  // ~80 MB
  EXPECT_EQ(error.code(), errc::kStagingMemoryLimitExceeded) << error.what();
  EXPECT_EQ(error.details()["limit_bytes"], 16 << 20);
  EXPECT_EQ(error.details()["table"], "big");
  EXPECT_FALSE(db.HasTable("big"));
  // The database stays usable for what fits.
  EXPECT_EQ(Stage(db, "small", columns, {{"y"}}), 1);
}

TEST(TempdbDuckdbTest, AuthorSqlGetsNoFileExtensionOrConfigurationPrimitive) {
  Tempdb db(TempdbOptions{.engine = TempdbEngine::kDuckdb});
  Stage(db, "stg", {Column("id", CanonicalType::kInteger)}, {{"1"}});
  for (const char* sql :
       {"SELECT * FROM read_csv('/etc/passwd')", "COPY stg TO '/tmp/dp_tempdb_escape.csv'",
        "ATTACH '/tmp/dp_tempdb_escape.duckdb' AS x", "INSTALL httpfs", "LOAD httpfs",
        "SET enable_external_access = true", "SET memory_limit = '100GB'", "PRAGMA threads = 64"}) {
    DomainError error = Refusal([&] { Read(db, sql); });
    EXPECT_TRUE(error.code() == errc::kNodeQueryFailed ||
                error.code() == errc::kDatasourceTableForbidden)
        << sql << ": " << error.code().code;
  }
  EXPECT_EQ(Read(db, "SELECT count(*) FROM stg").text, (std::vector<Cells>{{"1"}}));
}

TEST(TempdbDuckdbTest, EachTempdbIsPrivate) {
  Tempdb first(TempdbOptions{.engine = TempdbEngine::kDuckdb});
  Stage(first, "stg", {Column("id", CanonicalType::kInteger)}, {{"1"}});
  Tempdb other(TempdbOptions{.engine = TempdbEngine::kDuckdb});
  EXPECT_FALSE(other.HasTable("stg"));
  EXPECT_EQ(Refusal([&] { Read(other, "SELECT * FROM stg"); }).code(), errc::kNodeQueryFailed);
}

}  // namespace
}  // namespace dp
