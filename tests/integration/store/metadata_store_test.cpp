// The metadata store itself: migrations, ping, many callers at once, and what each adapter
// does of its own (WAL, reconnects, redaction).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "store_suite.hpp"

namespace dp {
namespace {

using namespace store_suite;

class MetadataStoreTest : public StoreSuite {};

// ---- lifecycle

TEST_P(MetadataStoreTest, MigrateIsIdempotentAndReportsVersion) {
  EXPECT_EQ(store().SchemaVersion(), LatestVersion());
  EXPECT_EQ(store().Migrate(), LatestVersion());
  EXPECT_EQ(store().Migrate(), LatestVersion());
  EXPECT_EQ(store().SchemaVersion(), LatestVersion());
  // A second instance on the same database finds nothing left to apply.
  auto again = OpenMetadataStore(url_);
  EXPECT_EQ(again->SchemaVersion(), LatestVersion());
  EXPECT_EQ(again->Migrate(), LatestVersion());
  store().Users().InsertUser(MakeUser("u1", "a@example.com"));
  EXPECT_EQ(again->Users().CountUsers(), 1);  // data survived the repeated migrations
}

TEST_P(MetadataStoreTest, FreshDatabaseIsVersionZeroUntilMigrated) {
  auto fresh = OpenMetadataStore(FreshUrl());
  EXPECT_EQ(fresh->SchemaVersion(), 0);
  EXPECT_EQ(fresh->Migrate(), LatestVersion());
  EXPECT_EQ(fresh->SchemaVersion(), LatestVersion());
  EXPECT_EQ(fresh->Users().CountUsers(), 0);
}

TEST_P(MetadataStoreTest, ConcurrentMigrationsApplyOnce) {
  std::string url = FreshUrl();
  auto a = OpenMetadataStore(url);
  auto b = OpenMetadataStore(url);
  std::atomic<int> failures{0};
  std::vector<int> versions(2, -1);
  std::thread ta([&] {
    try {
      versions[0] = a->Migrate();
    } catch (const std::exception&) {
      ++failures;
    }
  });
  std::thread tb([&] {
    try {
      versions[1] = b->Migrate();
    } catch (const std::exception&) {
      ++failures;
    }
  });
  ta.join();
  tb.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(versions[0], LatestVersion());
  EXPECT_EQ(versions[1], LatestVersion());
  a->Users().InsertUser(MakeUser("u1", "x@example.com"));
  EXPECT_EQ(b->Users().CountUsers(), 1);
}

TEST_P(MetadataStoreTest, PingAndBackendName) {
  EXPECT_TRUE(store().Ping());
  EXPECT_EQ(store().BackendName(), GetParam() == Backend::kSqlite ? "sqlite" : "postgres");
}

// ---- concurrency (callers run on a thread pool)

TEST_P(MetadataStoreTest, ConcurrentCallersFromManyThreads) {
  constexpr int kThreads = 8;
  constexpr int kPerThread = 20;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        std::string id = "u" + std::to_string(t) + "_" + std::to_string(i);
        try {
          store().Users().InsertUser(MakeUser(id, id + "@example.com"));
          if (!store().Users().FindUserByEmail(id + "@EXAMPLE.com")) ++failures;
          store().Audit().AppendAudit(MakeAudit("test.concurrent", i));
        } catch (const std::exception&) {
          ++failures;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(store().Users().CountUsers(), kThreads * kPerThread);
  EXPECT_EQ(store().Audit().ListAudit("test.", 1000).size(),
            static_cast<size_t>(kThreads * kPerThread));
}

// ---- backend-specific behaviour

TEST(SqliteMetadataStore, FileUsesWalAndSurvivesReopen) {
  fs::path dir = fs::temp_directory_path() / ("dp_store_wal_" + UniqueSuffix());
  fs::create_directories(dir);
  std::string path = (dir / "meta.db").string();
  {
    auto store = OpenMetadataStore(path);  // bare path form
    store->Migrate();
    store->Users().InsertUser(MakeUser("u1", "a@example.com"));
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &stmt, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), "wal");
  sqlite3_finalize(stmt);
  sqlite3_close(db);

  auto reopened = OpenMetadataStore("sqlite:" + path);
  EXPECT_EQ(reopened->SchemaVersion(), LatestVersion());
  EXPECT_TRUE(reopened->Users().FindUserByEmail("A@example.com").has_value());
  reopened.reset();
  fs::remove_all(dir);
}

TEST(PostgresMetadataStore, ReconnectsAfterServerDropsConnections) {
  DP_REQUIRE_SERVICE_URL(pg, "DP_TEST_PG_META_URL");
  std::string schema = "dp_store_test_" + UniqueSuffix();
  std::string app = "dp_store_reconnect_" + UniqueSuffix();
  ExecAdmin(pg, "DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " + schema);
  {
    auto store = OpenMetadataStore(WithApplicationName(WithSearchPath(pg, schema), app));
    ASSERT_EQ(store->Migrate(), LatestVersion());
    store->Users().InsertUser(MakeUser("u1", "a@example.com"));

    pqxx::connection admin(pg);
    pqxx::nontransaction tx(admin);
    auto killed = tx.exec_params(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", app);
    ASSERT_GE(killed.size(), 1u);

    // The first call after is a write: the closed connection is replaced before the statement
    // is sent (or, closed a moment late, the statement is retried once), and it is written once.
    store->Users().InsertUser(MakeUser("u2", "b@example.com"));
    EXPECT_EQ(store->Users().CountUsers(), 2);
    EXPECT_TRUE(store->Ping());
  }
  ExecAdmin(pg, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
}

// A full disk is an outage with its own code, not a server bug: the write is refused with
// service.metadata_storage_full (507, retry later), nothing of it is kept, and readiness says
// the store is down until a write reaches the disk again. SQLite's page limit fills the file
// exactly as a full disk would.
TEST(SqliteMetadataStore, AFullDiskRefusesWritesWithItsOwnCodeUntilSpaceReturns) {
  fs::path dir = fs::temp_directory_path() / ("dp_store_full_" + UniqueSuffix());
  fs::create_directories(dir);
  {
    auto store = OpenMetadataStore((dir / "meta.db").string());
    store->Migrate();
    store->Execute("PRAGMA wal_checkpoint(TRUNCATE)", {});
    const auto pages = store->Query("PRAGMA page_count", {}).at(0).at(0).value_or("0");
    store->Query("PRAGMA max_page_count = " + pages, {});
    User big = MakeUser("u1", "a@example.com");
    big.display_name = std::string(64 * 1024, 'x');  // more than the free pages hold
    try {
      store->Users().InsertUser(big);
      FAIL() << "a write past the full disk was accepted";
    } catch (const DomainError& error) {
      EXPECT_EQ(error.code(), errc::kMetadataStorageFull);
      EXPECT_EQ(error.http_status(), 507);
      EXPECT_TRUE(error.details().contains("retry_after_seconds"));
    }
    EXPECT_FALSE(store->Ping());
    EXPECT_EQ(store->Users().CountUsers(), 0);
    store->Query("PRAGMA max_page_count = 1073741823", {});
    store->Users().InsertUser(big);
    EXPECT_TRUE(store->Ping());
    EXPECT_EQ(store->Users().CountUsers(), 1);
  }
  fs::remove_all(dir);
}

TEST(PostgresMetadataStore, FailedLoginErrorIsRedacted) {
  DP_REQUIRE_SERVICE_URL(pg, "DP_TEST_PG_META_URL");
  // Same server, a role that does not exist and a recognisable password: the login fails
  // even where loopback is trusted, and the error must not echo the password.
  auto scheme_end = pg.find("://") + 3;
  auto at = pg.rfind('@');
  ASSERT_NE(at, std::string::npos);
  std::string real_userinfo = pg.substr(scheme_end, at - scheme_end);
  std::string bad = pg.substr(0, scheme_end) + "dp_no_such_role:Wr0ngPassw0rd" + pg.substr(at);
  try {
    OpenMetadataStore(bad);
    FAIL() << "expected the login to fail";
  } catch (const std::runtime_error& error) {
    std::string message = error.what();
    EXPECT_EQ(message.find("Wr0ngPassw0rd"), std::string::npos) << message;
    EXPECT_EQ(message.find(real_userinfo), std::string::npos);
    EXPECT_NE(message.find("dp_no_such_role:***@"), std::string::npos) << message;
  }
}

DP_STORE_SUITE_ON_EACH_BACKEND(MetadataStoreTest);

}  // namespace
}  // namespace dp
