#pragma once
// The shared fixture of the metadata store's port suites: each suite runs against both
// adapters (DESIGN §6), SQLite on a fresh temp file and PostgreSQL (DP_TEST_PG_META_URL) in a
// fresh private schema per test, so tests neither see each other's rows nor disturb other
// suites sharing the database.
#include "datapipelines/store/metadata_store.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <pqxx/pqxx>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "datapipelines/store/migration.hpp"
#include "support/test_env.hpp"

namespace dp::store_suite {

namespace fs = std::filesystem;

enum class Backend { kSqlite, kPostgres };

inline int LatestVersion() { return SqliteMigrations().back().version; }

inline std::string UniqueSuffix() {
  static std::atomic<int> counter{0};
  return std::to_string(::getpid()) + "_" + std::to_string(++counter);
}

// Points libpq at `schema` via the startup options of the URL.
inline std::string WithSearchPath(const std::string& url, const std::string& schema) {
  char separator = url.find('?') == std::string::npos ? '?' : '&';
  return url + separator + "options=-csearch_path%3D" + schema;
}

inline std::string WithApplicationName(const std::string& url, const std::string& name) {
  char separator = url.find('?') == std::string::npos ? '?' : '&';
  return url + separator + "application_name=" + name;
}

inline void ExecAdmin(const std::string& pg_url, const std::string& sql) {
  pqxx::connection conn(pg_url);
  pqxx::nontransaction tx(conn);
  tx.exec(sql);
}

inline User MakeUser(const std::string& id, const std::string& email, int64_t created = 1000) {
  User u;
  u.id = id;
  u.email = email;
  u.display_name = "User " + id;
  u.password_hash = "$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$aGFzaA";
  u.created_at_ms = created;
  return u;
}

inline Workspace MakeWorkspace(const std::string& id, const std::string& name,
                               const std::string& created_by = "") {
  return Workspace{id, name, "Workspace " + name, created_by, 2000};
}

inline ApiKeyRecord MakeKey(const std::string& id, const std::string& user_id,
                            const std::string& workspace_id, int64_t created = 3000) {
  ApiKeyRecord k;
  k.id = id;
  k.user_id = user_id;
  k.workspace_id = workspace_id;
  k.name = "key " + id;
  k.kind = KeyKind::kEndpoint;
  k.scope = Scope::kExecute;
  k.key_hash = "$argon2id$hash-of-" + id;
  k.created_at_ms = created;
  k.expires_at_ms = 9'000'000'000'000;
  return k;
}

inline AuditEvent MakeAudit(const std::string& event, int64_t ts, Json details = Json::object()) {
  AuditEvent e;
  e.timestamp_ms = ts;
  e.event = event;
  e.user_id = "u1";
  e.key_id = "dpk_ABCDEFGHIJKL";
  e.workspace_id = "w1";
  e.correlation_id = "corr-" + std::to_string(ts);
  e.source_ip = "127.0.0.1";
  e.details = std::move(details);
  return e;
}

class StoreSuite : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (GetParam() == Backend::kPostgres) {
      DP_REQUIRE_SERVICE_URL(pg, "DP_TEST_PG_META_URL");
      pg_url_ = pg;
    }
    url_ = FreshUrl();
    store_ = OpenMetadataStore(url_);
    ASSERT_EQ(store_->Migrate(), LatestVersion());
  }

  void TearDown() override {
    store_.reset();
    for (const auto& schema : schemas_) {
      ExecAdmin(pg_url_, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
    std::error_code ignored;
    for (const auto& dir : dirs_) fs::remove_all(dir, ignored);
  }

  // A new, empty database location for this backend (cleaned up in TearDown).
  std::string FreshUrl() {
    std::string suffix = UniqueSuffix();
    if (GetParam() == Backend::kSqlite) {
      fs::path dir = fs::temp_directory_path() / ("dp_store_test_" + suffix);
      fs::create_directories(dir);
      dirs_.push_back(dir);
      return "sqlite:" + (dir / "meta.db").string();
    }
    std::string schema = "dp_store_test_" + suffix;
    ExecAdmin(pg_url_, "DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " + schema);
    schemas_.push_back(schema);
    return WithSearchPath(pg_url_, schema);
  }

  MetadataStore& store() { return *store_; }

  // A lock on audit_log held by a second connection until destroyed: SQLite's write lock
  // (BEGIN EXCLUSIVE) or PostgreSQL's table lock, so this store's INSERTs wait behind it.
  struct AuditTableLock {
    sqlite3* sqlite = nullptr;
    std::unique_ptr<pqxx::connection> pg;
    std::unique_ptr<pqxx::work> tx;
    AuditTableLock() = default;
    AuditTableLock(AuditTableLock&&) = default;
    ~AuditTableLock() {
      tx.reset();  // rolls back: the lock is released
      if (sqlite) {
        sqlite3_exec(sqlite, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(sqlite);
      }
    }
  };
  AuditTableLock HoldAuditTable() {
    AuditTableLock lock;
    if (GetParam() == Backend::kSqlite) {
      EXPECT_EQ(sqlite3_open(SqlitePath().c_str(), &lock.sqlite), SQLITE_OK);
      EXPECT_EQ(sqlite3_exec(lock.sqlite, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
    } else {
      lock.pg = std::make_unique<pqxx::connection>(url_);
      lock.tx = std::make_unique<pqxx::work>(*lock.pg);
      lock.tx->exec("LOCK TABLE audit_log IN ACCESS EXCLUSIVE MODE");
    }
    return lock;
  }
  void ExecOnOtherConnection(const std::string& sql) {
    if (GetParam() == Backend::kPostgres) {
      pqxx::connection conn(url_);
      pqxx::nontransaction tx(conn);
      tx.exec(sql);
      return;
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(SqlitePath().c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  std::string SqlitePath() const { return url_.substr(std::string_view("sqlite:").size()); }

  // A user and a workspace that memberships, keys and sessions can point at.
  void SeedUserAndWorkspace() {
    store().Users().InsertUser(MakeUser("u1", "one@example.com"));
    store().Workspaces().InsertWorkspace(MakeWorkspace("w1", "analytics", "u1"));
  }

  std::string pg_url_;
  std::string url_;
  std::unique_ptr<MetadataStore> store_;
  std::vector<std::string> schemas_;
  std::vector<fs::path> dirs_;
};

// Runs `suite` (a StoreSuite) once per backend: …/Sqlite and …/Postgres.
#define DP_STORE_SUITE_ON_EACH_BACKEND(suite)                                         \
  INSTANTIATE_TEST_SUITE_P(Backends, suite,                                           \
                           ::testing::Values(::dp::store_suite::Backend::kSqlite,     \
                                             ::dp::store_suite::Backend::kPostgres),  \
                           [](const auto& info) {                                     \
                             return info.param == ::dp::store_suite::Backend::kSqlite \
                                        ? std::string("Sqlite")                       \
                                        : std::string("Postgres");                    \
                           })

}  // namespace dp::store_suite
