// The audit sink writes through the store and swallows store failures.
#include "datapipelines/service/audit/audit_log.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>

#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

TEST(AuditLog, RecordsAndFillsTheTimestamp) {
  auto store = OpenMetadataStore(":memory:");
  store->Migrate();
  AuditLog audit(store->Audit());
  AuditEvent event;
  event.event = "auth.test";
  event.details = {{"k", "v"}};
  audit.Record(event);
  auto rows = store->Audit().ListAudit("auth.test", 5);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_GT(rows[0].timestamp_ms, 1'700'000'000'000);
  EXPECT_EQ(rows[0].details, (Json{{"k", "v"}}));
}

TEST(AuditLog, AStoreFailureIsSwallowed) {
  auto path = std::filesystem::temp_directory_path() / ("dp-audit-" + NewUuid() + ".db");
  {
    auto store = OpenMetadataStore(path.string());
    store->Migrate();
    // Break the table behind the store's back, as a failing database would.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "DROP TABLE audit_log", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    AuditLog audit(store->Audit());
    AuditEvent event;
    event.event = "auth.test";
    EXPECT_NO_THROW(audit.Record(event));
  }
  std::filesystem::remove(path);
  std::filesystem::remove(path.string() + "-wal");
  std::filesystem::remove(path.string() + "-shm");
}

}  // namespace
}  // namespace dp
