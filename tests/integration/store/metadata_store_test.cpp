// One repository suite, run against both adapters (DESIGN §6): SQLite on a fresh temp file,
// PostgreSQL (DP_TEST_PG_META_URL) in a fresh private schema per test, so tests neither
// see each other's rows nor disturb other suites sharing the database.
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

#include "datapipelines/store/audit_write_queue.hpp"
#include "datapipelines/store/migration.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

enum class Backend { kSqlite, kPostgres };

int LatestVersion() { return SqliteMigrations().back().version; }

std::string UniqueSuffix() {
  static std::atomic<int> counter{0};
  return std::to_string(::getpid()) + "_" + std::to_string(++counter);
}

// Points libpq at `schema` via the startup options of the URL.
std::string WithSearchPath(const std::string& url, const std::string& schema) {
  char separator = url.find('?') == std::string::npos ? '?' : '&';
  return url + separator + "options=-csearch_path%3D" + schema;
}

std::string WithApplicationName(const std::string& url, const std::string& name) {
  char separator = url.find('?') == std::string::npos ? '?' : '&';
  return url + separator + "application_name=" + name;
}

void ExecAdmin(const std::string& pg_url, const std::string& sql) {
  pqxx::connection conn(pg_url);
  pqxx::nontransaction tx(conn);
  tx.exec(sql);
}

User MakeUser(const std::string& id, const std::string& email, int64_t created = 1000) {
  User u;
  u.id = id;
  u.email = email;
  u.display_name = "User " + id;
  u.password_hash = "$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$aGFzaA";
  u.created_at_ms = created;
  return u;
}

Workspace MakeWorkspace(const std::string& id, const std::string& name,
                        const std::string& created_by = "") {
  return Workspace{id, name, "Workspace " + name, created_by, 2000};
}

ApiKeyRecord MakeKey(const std::string& id, const std::string& user_id,
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

AuditEvent MakeAudit(const std::string& event, int64_t ts, Json details = Json::object()) {
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

class MetadataStoreTest : public ::testing::TestWithParam<Backend> {
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
    store().InsertUser(MakeUser("u1", "one@example.com"));
    store().InsertWorkspace(MakeWorkspace("w1", "analytics", "u1"));
  }

  std::string pg_url_;
  std::string url_;
  std::unique_ptr<MetadataStore> store_;
  std::vector<std::string> schemas_;
  std::vector<fs::path> dirs_;
};

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
  store().InsertUser(MakeUser("u1", "a@example.com"));
  EXPECT_EQ(again->CountUsers(), 1);  // data survived the repeated migrations
}

TEST_P(MetadataStoreTest, FreshDatabaseIsVersionZeroUntilMigrated) {
  auto fresh = OpenMetadataStore(FreshUrl());
  EXPECT_EQ(fresh->SchemaVersion(), 0);
  EXPECT_EQ(fresh->Migrate(), LatestVersion());
  EXPECT_EQ(fresh->SchemaVersion(), LatestVersion());
  EXPECT_EQ(fresh->CountUsers(), 0);
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
  a->InsertUser(MakeUser("u1", "x@example.com"));
  EXPECT_EQ(b->CountUsers(), 1);
}

TEST_P(MetadataStoreTest, PingAndBackendName) {
  EXPECT_TRUE(store().Ping());
  EXPECT_EQ(store().BackendName(), GetParam() == Backend::kSqlite ? "sqlite" : "postgres");
}

// ---- users

TEST_P(MetadataStoreTest, UserRoundTripAndLookups) {
  User u = MakeUser("u1", "Alice@Example.COM", 1234);
  u.is_super_admin = true;
  store().InsertUser(u);

  auto by_id = store().FindUserById("u1");
  ASSERT_TRUE(by_id.has_value());
  EXPECT_EQ(by_id->email, "alice@example.com");  // stored lowercased
  EXPECT_EQ(by_id->display_name, "User u1");
  EXPECT_EQ(by_id->password_hash, u.password_hash);
  EXPECT_TRUE(by_id->is_active);
  EXPECT_TRUE(by_id->is_super_admin);
  EXPECT_EQ(by_id->created_at_ms, 1234);

  for (const std::string email : {"alice@example.com", "ALICE@EXAMPLE.COM", "aLiCe@example.com"}) {
    auto found = store().FindUserByEmail(email);
    ASSERT_TRUE(found.has_value()) << email;
    EXPECT_EQ(found->id, "u1");
  }
  EXPECT_FALSE(store().FindUserByEmail("bob@example.com").has_value());
  EXPECT_FALSE(store().FindUserById("nope").has_value());
}

TEST_P(MetadataStoreTest, ListAndCountUsers) {
  EXPECT_EQ(store().CountUsers(), 0);
  EXPECT_TRUE(store().ListUsers().empty());
  store().InsertUser(MakeUser("u2", "b@example.com", 2000));
  store().InsertUser(MakeUser("u1", "a@example.com", 1000));
  store().InsertUser(MakeUser("u3", "c@example.com", 3000));
  EXPECT_EQ(store().CountUsers(), 3);
  auto users = store().ListUsers();
  ASSERT_EQ(users.size(), 3u);
  EXPECT_EQ(users[0].id, "u1");  // oldest first
  EXPECT_EQ(users[1].id, "u2");
  EXPECT_EQ(users[2].id, "u3");
}

TEST_P(MetadataStoreTest, SetUserActiveAndPasswordHash) {
  User u = MakeUser("u1", "a@example.com");
  u.password_hash = "";
  store().InsertUser(u);
  EXPECT_EQ(store().FindUserById("u1")->password_hash, "");

  store().SetUserActive("u1", false);
  EXPECT_FALSE(store().FindUserById("u1")->is_active);
  store().SetUserActive("u1", true);
  EXPECT_TRUE(store().FindUserById("u1")->is_active);

  store().SetUserPasswordHash("u1", "$argon2id$new");
  EXPECT_EQ(store().FindUserById("u1")->password_hash, "$argon2id$new");
  EXPECT_NO_THROW(store().SetUserActive("unknown", false));  // no row, no error
}

TEST_P(MetadataStoreTest, DuplicateUsersAreRejected) {
  store().InsertUser(MakeUser("u1", "a@example.com"));
  EXPECT_THROW(store().InsertUser(MakeUser("u1", "other@example.com")), DuplicateKeyError);
  // Case-insensitive uniqueness: the same address in other case is a duplicate.
  EXPECT_THROW(store().InsertUser(MakeUser("u2", "A@EXAMPLE.com")), DuplicateKeyError);
  EXPECT_EQ(store().CountUsers(), 1);
}

// ---- workspaces

TEST_P(MetadataStoreTest, WorkspaceRoundTripAndLookups) {
  store().InsertUser(MakeUser("u1", "a@example.com"));
  store().InsertWorkspace(MakeWorkspace("w2", "zeta", "u1"));
  store().InsertWorkspace(MakeWorkspace("w1", "alpha"));  // no creator recorded

  auto w = store().FindWorkspaceById("w2");
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->name, "zeta");
  EXPECT_EQ(w->display_name, "Workspace zeta");
  EXPECT_EQ(w->created_by, "u1");
  EXPECT_EQ(w->created_at_ms, 2000);
  EXPECT_EQ(store().FindWorkspaceById("w1")->created_by, "");

  auto by_name = store().FindWorkspaceByName("alpha");
  ASSERT_TRUE(by_name.has_value());
  EXPECT_EQ(by_name->id, "w1");
  EXPECT_FALSE(store().FindWorkspaceByName("missing").has_value());
  EXPECT_FALSE(store().FindWorkspaceById("missing").has_value());

  auto all = store().ListWorkspaces();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, "alpha");  // by name
  EXPECT_EQ(all[1].name, "zeta");
}

TEST_P(MetadataStoreTest, DuplicateWorkspacesAreRejected) {
  store().InsertWorkspace(MakeWorkspace("w1", "analytics"));
  EXPECT_THROW(store().InsertWorkspace(MakeWorkspace("w2", "analytics")), DuplicateKeyError);
  EXPECT_THROW(store().InsertWorkspace(MakeWorkspace("w1", "other")), DuplicateKeyError);
  EXPECT_EQ(store().ListWorkspaces().size(), 1u);
}

// ---- memberships

TEST_P(MetadataStoreTest, MembershipUpsertFindListDelete) {
  SeedUserAndWorkspace();
  store().InsertUser(MakeUser("u2", "two@example.com"));
  store().InsertWorkspace(MakeWorkspace("w2", "finance"));

  store().UpsertMembership({"w1", "u1", Role::kWsAdmin, 100});
  store().UpsertMembership({"w1", "u2", Role::kViewer, 200});
  store().UpsertMembership({"w2", "u1", Role::kOperator, 300});

  auto m = store().FindMembership("w1", "u2");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->role, Role::kViewer);
  EXPECT_EQ(m->joined_at_ms, 200);
  EXPECT_FALSE(store().FindMembership("w2", "u2").has_value());

  // Upsert replaces the role and keeps the original join time.
  store().UpsertMembership({"w1", "u2", Role::kAuthor, 999});
  m = store().FindMembership("w1", "u2");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->role, Role::kAuthor);
  EXPECT_EQ(m->joined_at_ms, 200);

  auto members = store().ListMembers("w1");
  ASSERT_EQ(members.size(), 2u);
  EXPECT_EQ(members[0].user_id, "u1");
  EXPECT_EQ(members[0].role, Role::kWsAdmin);
  EXPECT_EQ(members[1].user_id, "u2");

  auto of_user = store().ListMembershipsOfUser("u1");
  ASSERT_EQ(of_user.size(), 2u);
  EXPECT_EQ(of_user[0].workspace_id, "w1");
  EXPECT_EQ(of_user[1].workspace_id, "w2");
  EXPECT_EQ(of_user[1].role, Role::kOperator);

  EXPECT_TRUE(store().DeleteMembership("w1", "u2"));
  EXPECT_FALSE(store().DeleteMembership("w1", "u2"));
  EXPECT_FALSE(store().FindMembership("w1", "u2").has_value());
  EXPECT_EQ(store().ListMembers("w1").size(), 1u);
}

TEST_P(MetadataStoreTest, EveryRoleRoundTrips) {
  SeedUserAndWorkspace();
  for (Role role : {Role::kViewer, Role::kOperator, Role::kAuthor, Role::kWsAdmin}) {
    store().UpsertMembership({"w1", "u1", role, 1});
    EXPECT_EQ(store().FindMembership("w1", "u1")->role, role) << ToString(role);
  }
}

TEST_P(MetadataStoreTest, ForeignKeysAreEnforced) {
  SeedUserAndWorkspace();
  EXPECT_THROW(store().UpsertMembership({"w1", "ghost", Role::kViewer, 1}), std::runtime_error);
  EXPECT_THROW(store().InsertApiKey(MakeKey("dpk_AAAAAAAAAAAA", "ghost", "w1")),
               std::runtime_error);
  EXPECT_THROW(store().InsertSession({"hash", "u1", "no-such-ws", 1, 2}), std::runtime_error);
  try {
    store().UpsertMembership({"nope", "u1", Role::kViewer, 1});
    FAIL() << "expected a foreign-key violation";
  } catch (const DuplicateKeyError&) {
    FAIL() << "a foreign-key violation is not a duplicate";
  } catch (const std::runtime_error&) {
  }
}

// ---- API keys

TEST_P(MetadataStoreTest, ApiKeyRoundTripAndLists) {
  SeedUserAndWorkspace();
  store().InsertUser(MakeUser("u2", "two@example.com"));
  ApiKeyRecord k1 = MakeKey("dpk_AAAAAAAAAAAA", "u1", "w1", 100);
  ApiKeyRecord k2 = MakeKey("dpk_BBBBBBBBBBBB", "u1", "", 200);  // server key: no workspace
  k2.kind = KeyKind::kServer;
  k2.scope = Scope::kAuthor;
  k2.expires_at_ms.reset();
  ApiKeyRecord k3 = MakeKey("dpk_CCCCCCCCCCCC", "u2", "w1", 300);
  k3.kind = KeyKind::kUser;
  k3.scope = Scope::kRead;
  k3.last_used_at_ms = 250;
  store().InsertApiKey(k1);
  store().InsertApiKey(k2);
  store().InsertApiKey(k3);

  auto found = store().FindApiKey("dpk_AAAAAAAAAAAA");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->user_id, "u1");
  EXPECT_EQ(found->workspace_id, "w1");
  EXPECT_EQ(found->name, "key dpk_AAAAAAAAAAAA");
  EXPECT_EQ(found->kind, KeyKind::kEndpoint);
  EXPECT_EQ(found->scope, Scope::kExecute);
  EXPECT_EQ(found->key_hash, "$argon2id$hash-of-dpk_AAAAAAAAAAAA");
  EXPECT_FALSE(found->is_revoked);
  EXPECT_EQ(found->created_at_ms, 100);
  EXPECT_EQ(found->expires_at_ms, std::optional<int64_t>(9'000'000'000'000));
  EXPECT_FALSE(found->last_used_at_ms.has_value());

  auto server = store().FindApiKey("dpk_BBBBBBBBBBBB");
  ASSERT_TRUE(server.has_value());
  EXPECT_EQ(server->workspace_id, "");
  EXPECT_EQ(server->kind, KeyKind::kServer);
  EXPECT_EQ(server->scope, Scope::kAuthor);
  EXPECT_FALSE(server->expires_at_ms.has_value());
  EXPECT_EQ(store().FindApiKey("dpk_CCCCCCCCCCCC")->last_used_at_ms, std::optional<int64_t>(250));
  EXPECT_FALSE(store().FindApiKey("dpk_ZZZZZZZZZZZZ").has_value());

  auto of_u1 = store().ListApiKeysOfUser("u1");
  ASSERT_EQ(of_u1.size(), 2u);
  EXPECT_EQ(of_u1[0].id, "dpk_AAAAAAAAAAAA");
  EXPECT_EQ(of_u1[1].id, "dpk_BBBBBBBBBBBB");
  auto all = store().ListApiKeys();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[2].id, "dpk_CCCCCCCCCCCC");
  EXPECT_TRUE(store().ListApiKeysOfUser("nobody").empty());

  EXPECT_THROW(store().InsertApiKey(k1), DuplicateKeyError);
}

TEST_P(MetadataStoreTest, RevokeApiKey) {
  SeedUserAndWorkspace();
  store().InsertApiKey(MakeKey("dpk_AAAAAAAAAAAA", "u1", "w1"));
  EXPECT_TRUE(store().RevokeApiKey("dpk_AAAAAAAAAAAA"));
  EXPECT_TRUE(store().FindApiKey("dpk_AAAAAAAAAAAA")->is_revoked);
  EXPECT_TRUE(store().RevokeApiKey("dpk_AAAAAAAAAAAA"));  // known key: still true
  EXPECT_FALSE(store().RevokeApiKey("dpk_UNKNOWNUNKNO"));
}

TEST_P(MetadataStoreTest, TouchApiKeyRecordsLastUseMonotonically) {
  SeedUserAndWorkspace();
  store().InsertApiKey(MakeKey("dpk_AAAAAAAAAAAA", "u1", "w1"));
  store().TouchApiKey("dpk_AAAAAAAAAAAA", 5000);
  EXPECT_EQ(store().FindApiKey("dpk_AAAAAAAAAAAA")->last_used_at_ms, std::optional<int64_t>(5000));
  store().TouchApiKey("dpk_AAAAAAAAAAAA", 7000);
  EXPECT_EQ(store().FindApiKey("dpk_AAAAAAAAAAAA")->last_used_at_ms, std::optional<int64_t>(7000));
  store().TouchApiKey("dpk_AAAAAAAAAAAA", 6000);  // a late, older touch loses
  EXPECT_EQ(store().FindApiKey("dpk_AAAAAAAAAAAA")->last_used_at_ms, std::optional<int64_t>(7000));
  EXPECT_NO_THROW(store().TouchApiKey("dpk_UNKNOWNUNKNO", 1));
}

// ---- sessions

TEST_P(MetadataStoreTest, SessionInsertFindDelete) {
  SeedUserAndWorkspace();
  store().InsertSession({"hash-a", "u1", "w1", 100, 200});
  store().InsertSession({"hash-b", "u1", "", 300, 400});  // no active workspace

  auto a = store().FindSession("hash-a");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->user_id, "u1");
  EXPECT_EQ(a->workspace_id, "w1");
  EXPECT_EQ(a->created_at_ms, 100);
  EXPECT_EQ(a->expires_at_ms, 200);
  EXPECT_EQ(store().FindSession("hash-b")->workspace_id, "");
  EXPECT_FALSE(store().FindSession("hash-c").has_value());

  EXPECT_THROW(store().InsertSession({"hash-a", "u1", "", 1, 2}), DuplicateKeyError);

  store().DeleteSession("hash-a");
  EXPECT_FALSE(store().FindSession("hash-a").has_value());
  EXPECT_TRUE(store().FindSession("hash-b").has_value());
  EXPECT_NO_THROW(store().DeleteSession("hash-a"));
}

TEST_P(MetadataStoreTest, DeleteOtherSessionsOfUserKeepsOneAndOtherUsers) {
  SeedUserAndWorkspace();
  store().InsertUser(MakeUser("u2", "two@example.com"));
  for (const char* hash : {"keep", "old-1", "old-2"}) store().InsertSession({hash, "u1", "", 1, 9});
  store().InsertSession({"theirs", "u2", "", 1, 9});
  EXPECT_EQ(store().DeleteOtherSessionsOfUser("u1", "keep"), 2);
  EXPECT_TRUE(store().FindSession("keep").has_value());
  EXPECT_FALSE(store().FindSession("old-1").has_value());
  EXPECT_FALSE(store().FindSession("old-2").has_value());
  EXPECT_TRUE(store().FindSession("theirs").has_value());
  EXPECT_EQ(store().DeleteOtherSessionsOfUser("u1", "keep"), 0);
}

// ---- audit log

TEST_P(MetadataStoreTest, AuditAppendAndListNewestFirst) {
  store().AppendAudit(MakeAudit("auth.login.succeeded", 100, {{"method", "password"}}));
  store().AppendAudit(MakeAudit("mcp.tool.called", 200, {{"tool", "pipelines_list"}, {"n", 3}}));
  store().AppendAudit(MakeAudit("auth.api_key.created", 300));

  auto all = store().ListAudit("", 10);
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

  auto limited = store().ListAudit("", 2);
  ASSERT_EQ(limited.size(), 2u);
  EXPECT_EQ(limited[0].event, "auth.api_key.created");
  EXPECT_TRUE(store().ListAudit("", 0).empty());
}

TEST_P(MetadataStoreTest, AuditSincePagesNewestFirst) {
  for (int i = 1; i <= 5; ++i) store().AppendAudit(MakeAudit("rest.write", i * 100));
  store().AppendAudit(MakeAudit("auth.login.succeeded", 600));
  auto page = store().ListAuditSince(200, "rest.", 0, 2);
  ASSERT_EQ(page.size(), 2u);
  EXPECT_EQ(page[0].timestamp_ms, 500);
  EXPECT_EQ(page[1].timestamp_ms, 400);
  auto next = store().ListAuditSince(200, "rest.", 2, 10);
  ASSERT_EQ(next.size(), 2u);  // 300 and 200; 100 is before since
  EXPECT_EQ(next[1].timestamp_ms, 200);
  EXPECT_EQ(store().ListAuditSince(0, "", 0, 100).size(), 6u);
  EXPECT_TRUE(store().ListAuditSince(700, "", 0, 100).empty());
  EXPECT_TRUE(store().ListAuditSince(0, "", 0, 0).empty());
}

TEST_P(MetadataStoreTest, ApiKeyMintedByRoundTrips) {
  SeedUserAndWorkspace();
  ApiKeyRecord parent = MakeKey("dpk_AAAAAAAAAAAA", "u1", "w1");
  parent.minted_by = "session";
  ApiKeyRecord child = MakeKey("dpk_BBBBBBBBBBBB", "u1", "w1");
  child.minted_by = parent.id;
  store().InsertApiKey(parent);
  store().InsertApiKey(child);
  store().InsertApiKey(MakeKey("dpk_CCCCCCCCCCCC", "u1", "w1"));
  EXPECT_EQ(store().FindApiKey(parent.id)->minted_by, "session");
  EXPECT_EQ(store().FindApiKey(child.id)->minted_by, parent.id);
  EXPECT_EQ(store().FindApiKey("dpk_CCCCCCCCCCCC")->minted_by, "");  // not recorded
}

TEST_P(MetadataStoreTest, AuditPrefixFilterIsLiteralAndCaseSensitive) {
  store().AppendAudit(MakeAudit("auth.login.succeeded", 1));
  store().AppendAudit(MakeAudit("auth.api_key.created", 2));
  store().AppendAudit(MakeAudit("auth.apiXkey.created", 3));  // '_' must not act as wildcard
  store().AppendAudit(MakeAudit("mcp.tool.called", 4));

  auto auth = store().ListAudit("auth.", 10);
  ASSERT_EQ(auth.size(), 3u);
  EXPECT_EQ(auth[0].event, "auth.apiXkey.created");
  EXPECT_EQ(auth[2].event, "auth.login.succeeded");

  auto keys = store().ListAudit("auth.api_key", 10);
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].event, "auth.api_key.created");

  EXPECT_EQ(store().ListAudit("mcp.", 10).size(), 1u);
  EXPECT_TRUE(store().ListAudit("AUTH.", 10).empty());
  EXPECT_TRUE(store().ListAudit("nothing.", 10).empty());
  EXPECT_EQ(store().ListAudit("auth.", 1).size(), 1u);
}

TEST_P(MetadataStoreTest, AuditKeepsEmptyFieldsEmpty) {
  AuditEvent e;
  e.timestamp_ms = 42;
  e.event = "auth.session.expired";
  store().AppendAudit(e);
  auto rows = store().ListAudit("", 5);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].user_id, "");
  EXPECT_EQ(rows[0].key_id, "");
  EXPECT_EQ(rows[0].workspace_id, "");
  EXPECT_EQ(rows[0].correlation_id, "");
  EXPECT_EQ(rows[0].source_ip, "");
  EXPECT_EQ(rows[0].timestamp_ms, 42);
}

TEST_P(MetadataStoreTest, AuditBatchAppendsEveryRowInOrder) {
  std::vector<AuditEvent> batch;
  for (int i = 1; i <= 300; ++i) {
    batch.push_back(MakeAudit("mcp.tool.called", i, {{"tool", "pipelines_list"}, {"i", i}}));
  }
  batch[7].user_id.clear();  // an empty id is NULL in a batch as in a single append
  store().AppendAuditBatch(batch);
  auto rows = store().ListAudit("mcp.", 1000);
  ASSERT_EQ(rows.size(), 300u);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].timestamp_ms, static_cast<int64_t>(300 - i));  // newest first
    EXPECT_EQ(rows[i].details["i"], 300 - static_cast<int>(i));
  }
  EXPECT_EQ(rows[299 - 7].user_id, "");
  EXPECT_EQ(rows[0].correlation_id, "corr-300");
  store().AppendAuditBatch({});  // nothing to write is not an error
  EXPECT_EQ(store().ListAudit("", 1000).size(), 300u);
}

// The audit write queue over this backend: rows land in batches, Flush sees them, Stop drains,
// a full queue drops and counts instead of blocking the caller.
TEST_P(MetadataStoreTest, AuditQueueWritesEveryRowInBatches) {
  AuditWriteQueue queue(store(), {.capacity = 1000, .max_batch = 16});
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&queue, t] {
      for (int i = 0; i < 25; ++i) EXPECT_TRUE(queue.Push(MakeAudit("queue.row", t * 100 + i)));
    });
  }
  for (auto& writer : writers) writer.join();
  queue.Flush();
  EXPECT_EQ(store().ListAudit("queue.", 1000).size(), 100u);
  EXPECT_GE(queue.Batches(), 7);  // at most 16 rows per INSERT
  EXPECT_LE(queue.Batches(), 100);
  EXPECT_EQ(queue.Dropped(), 0);
  EXPECT_EQ(queue.WriteFailures(), 0);
}

TEST_P(MetadataStoreTest, AuditQueueStopWritesWhatIsQueued) {
  {
    AuditWriteQueue queue(store(), {.capacity = 1000, .max_batch = 8});
    for (int i = 0; i < 50; ++i) queue.Push(MakeAudit("queue.drained", i));
  }  // the destructor stops the queue: nothing queued is lost
  EXPECT_EQ(store().ListAudit("queue.drained", 1000).size(), 50u);
}

TEST_P(MetadataStoreTest, AuditQueueDropsAndCountsWhenFullWithoutBlocking) {
  constexpr int kCapacity = 10;
  constexpr int kBatch = 4;
  constexpr int kPushed = 40;
  AuditWriteQueue queue(store(), {.capacity = kCapacity, .max_batch = kBatch});
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
  EXPECT_EQ(store().ListAudit("queue.full", 1000).size(), static_cast<std::size_t>(accepted));
  EXPECT_TRUE(queue.Push(MakeAudit("queue.full", 99)));  // room again once written
}

TEST_P(MetadataStoreTest, AuditQueueCountsRowsTheStoreRefuses) {
  AuditWriteQueue queue(store(), {.capacity = 100, .max_batch = 16});
  ExecOnOtherConnection("DROP TABLE audit_log");
  for (int i = 0; i < 3; ++i) queue.Push(MakeAudit("queue.lost", i));
  queue.Flush();                        // settled: written or failed, never waited on forever
  EXPECT_EQ(queue.WriteFailures(), 3);  // the batch failed, then each row alone
  EXPECT_EQ(queue.Dropped(), 0);
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
          store().InsertUser(MakeUser(id, id + "@example.com"));
          if (!store().FindUserByEmail(id + "@EXAMPLE.com")) ++failures;
          store().AppendAudit(MakeAudit("test.concurrent", i));
        } catch (const std::exception&) {
          ++failures;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(store().CountUsers(), kThreads * kPerThread);
  EXPECT_EQ(store().ListAudit("test.", 1000).size(), static_cast<size_t>(kThreads * kPerThread));
}

INSTANTIATE_TEST_SUITE_P(Backends, MetadataStoreTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres),
                         [](const auto& info) {
                           return info.param == Backend::kSqlite ? std::string("Sqlite")
                                                                 : std::string("Postgres");
                         });

// ---- backend-specific behaviour

TEST(SqliteMetadataStore, FileUsesWalAndSurvivesReopen) {
  fs::path dir = fs::temp_directory_path() / ("dp_store_wal_" + UniqueSuffix());
  fs::create_directories(dir);
  std::string path = (dir / "meta.db").string();
  {
    auto store = OpenMetadataStore(path);  // bare path form
    store->Migrate();
    store->InsertUser(MakeUser("u1", "a@example.com"));
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
  EXPECT_TRUE(reopened->FindUserByEmail("A@example.com").has_value());
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
    store->InsertUser(MakeUser("u1", "a@example.com"));

    pqxx::connection admin(pg);
    pqxx::nontransaction tx(admin);
    auto killed = tx.exec_params(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", app);
    ASSERT_GE(killed.size(), 1u);

    EXPECT_EQ(store->CountUsers(), 1);  // broken connection reopened, call retried
    EXPECT_TRUE(store->Ping());
    store->InsertUser(MakeUser("u2", "b@example.com"));
    EXPECT_EQ(store->CountUsers(), 2);
  }
  ExecAdmin(pg, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
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

}  // namespace
}  // namespace dp
