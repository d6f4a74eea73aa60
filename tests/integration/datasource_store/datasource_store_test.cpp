// The datasource registry and grants (migration 0003) against both metadata adapters:
// SQLite on a fresh temp file, PostgreSQL in a fresh private schema per test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <pqxx/pqxx>

#include "datapipelines/store/metadata_store.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

enum class Backend { kSqlite, kPostgres };

std::string Suffix() {
  static std::atomic<int> counter{0};
  return std::to_string(::getpid()) + "_" + std::to_string(++counter);
}

DatasourceRecord MakeDatasource(const std::string& name, const std::string& workspace_id = "") {
  DatasourceRecord ds;
  ds.name = name;
  ds.display_name = "DS " + name;
  ds.description = "a test datasource";
  ds.dialect = "POSTGRES";
  ds.jdbc_url = "jdbc:postgresql://127.0.0.1:5432/app";
  ds.username = "app";
  ds.password_encrypted = "v1:c2VhbGVk";
  ds.properties = Json{{"hikari", {{"maximumPoolSize", 4}}}};
  ds.query_timeout_seconds = 30;
  ds.include_schemas = {"apex_reporting"};
  ds.readonly = true;
  ds.workspace_id = workspace_id;
  ds.created_at_ms = 1000;
  ds.updated_at_ms = 1000;
  return ds;
}

class DatasourceStoreTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (GetParam() == Backend::kSqlite) {
      path_ = std::filesystem::temp_directory_path() / ("dp_ds_store_" + Suffix() + ".db");
      store_ = OpenMetadataStore("sqlite:" + path_.string());
    } else {
      DP_REQUIRE_SERVICE_URL(url, "DP_TEST_PG_META_URL");
      admin_url_ = url;
      schema_ = "dp_ds_store_" + Suffix();
      Exec("CREATE SCHEMA " + schema_);
      char sep = url.find('?') == std::string::npos ? '?' : '&';
      store_ = OpenMetadataStore(url + sep + "options=-csearch_path%3D" + schema_);
    }
    store_->Migrate();
    store_->Workspaces().InsertWorkspace(Workspace{"ws-a", "alpha", "Alpha", "", 1});
    store_->Workspaces().InsertWorkspace(Workspace{"ws-b", "beta", "Beta", "", 2});
  }
  void TearDown() override {
    store_.reset();
    if (!path_.empty()) std::filesystem::remove(path_);
    if (!schema_.empty()) Exec("DROP SCHEMA " + schema_ + " CASCADE");
  }
  void Exec(const std::string& sql) {
    pqxx::connection conn(admin_url_);
    pqxx::nontransaction tx(conn);
    tx.exec(sql);
  }

  std::unique_ptr<MetadataStore> store_;
  std::filesystem::path path_;
  std::string admin_url_, schema_;
};

TEST_P(DatasourceStoreTest, InsertFindRoundTripsEveryColumn) {
  store_->Datasources().InsertDatasource(MakeDatasource("pg-prod", "ws-a"));
  auto found = store_->Datasources().FindDatasource("pg-prod");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->display_name, "DS pg-prod");
  EXPECT_EQ(found->description, "a test datasource");
  EXPECT_EQ(found->dialect, "POSTGRES");
  EXPECT_EQ(found->password_encrypted, "v1:c2VhbGVk");
  EXPECT_EQ(found->properties["hikari"]["maximumPoolSize"], 4);
  EXPECT_EQ(found->query_timeout_seconds, 30);
  EXPECT_EQ(found->include_schemas, std::vector<std::string>{"apex_reporting"});
  EXPECT_TRUE(found->readonly);
  EXPECT_EQ(found->workspace_id, "ws-a");
  EXPECT_FALSE(found->is_deleted);
  EXPECT_FALSE(found->last_test.has_value());
  EXPECT_FALSE(store_->Datasources().FindDatasource("nope"));
}

TEST_P(DatasourceStoreTest, OptionalColumnsStayAbsent) {
  DatasourceRecord ds = MakeDatasource("bare");
  ds.description.reset();
  ds.query_timeout_seconds.reset();
  ds.include_schemas.clear();
  store_->Datasources().InsertDatasource(ds);
  auto found = store_->Datasources().FindDatasource("bare");
  ASSERT_TRUE(found);
  EXPECT_FALSE(found->description);
  EXPECT_FALSE(found->query_timeout_seconds);
  EXPECT_TRUE(found->include_schemas.empty());
  EXPECT_EQ(found->workspace_id, "");
}

TEST_P(DatasourceStoreTest, DuplicateNamesAreRefusedEvenAfterSoftDelete) {
  store_->Datasources().InsertDatasource(MakeDatasource("dup"));
  EXPECT_THROW(store_->Datasources().InsertDatasource(MakeDatasource("dup")), DuplicateKeyError);
  EXPECT_TRUE(store_->Datasources().SoftDeleteDatasource("dup", 2000));
  EXPECT_FALSE(store_->Datasources().SoftDeleteDatasource("dup", 3000));
  EXPECT_THROW(store_->Datasources().InsertDatasource(MakeDatasource("dup")), DuplicateKeyError);
  auto found = store_->Datasources().FindDatasource("dup");
  ASSERT_TRUE(found);
  EXPECT_TRUE(found->is_deleted);
  EXPECT_TRUE(store_->Datasources().ListDatasources().empty());
}

TEST_P(DatasourceStoreTest, ASoftDeletedRowIsRestoredOrPurged) {
  store_->Datasources().InsertDatasource(MakeDatasource("back"));
  store_->Datasources().InsertDatasourceGrant({"back", "ws-a", "", 10});
  EXPECT_FALSE(store_->Datasources().RestoreDatasource("back", 2000));  // live: nothing to restore
  EXPECT_FALSE(store_->Datasources().PurgeDatasource("back"));          // live: never purged
  ASSERT_TRUE(store_->Datasources().SoftDeleteDatasource("back", 3000));
  EXPECT_TRUE(store_->Datasources().RestoreDatasource("back", 4000));
  EXPECT_FALSE(store_->Datasources().FindDatasource("back")->is_deleted);
  EXPECT_TRUE(store_->Datasources().IsDatasourceGranted("back", "ws-a"));  // the grant survived
  ASSERT_TRUE(store_->Datasources().SoftDeleteDatasource("back", 5000));
  EXPECT_TRUE(store_->Datasources().PurgeDatasource("back"));
  EXPECT_FALSE(store_->Datasources().FindDatasource("back").has_value());
  EXPECT_TRUE(store_->Datasources().ListDatasourceGrants("back").empty());  // cascaded
  store_->Datasources().InsertDatasource(MakeDatasource("back"));  // the name is free again
  EXPECT_FALSE(store_->Datasources().FindDatasource("back")->is_deleted);
  EXPECT_FALSE(store_->Datasources().PurgeDatasource("missing"));
}

TEST_P(DatasourceStoreTest, DatabaseChecksBackTheApplicationRules) {
  EXPECT_ANY_THROW(store_->Datasources().InsertDatasource(MakeDatasource("Bad Name")));
  DatasourceRecord ds = MakeDatasource("bad-dialect");
  ds.dialect = "NOSQL";
  EXPECT_ANY_THROW(store_->Datasources().InsertDatasource(ds));
  ds = MakeDatasource("bad-timeout");
  ds.query_timeout_seconds = 0;
  EXPECT_ANY_THROW(store_->Datasources().InsertDatasource(ds));
}

TEST_P(DatasourceStoreTest, UpdateRewritesMutableColumnsOfLiveRowsOnly) {
  store_->Datasources().InsertDatasource(MakeDatasource("upd"));
  DatasourceRecord changed = MakeDatasource("upd");
  changed.display_name = "Renamed display";
  changed.jdbc_url = "jdbc:postgresql://10.0.0.1:5433/other";
  changed.readonly = false;
  changed.include_schemas = {};
  changed.updated_at_ms = 5000;
  EXPECT_TRUE(store_->Datasources().UpdateDatasource(changed));
  auto found = store_->Datasources().FindDatasource("upd");
  EXPECT_EQ(found->display_name, "Renamed display");
  EXPECT_EQ(found->jdbc_url, "jdbc:postgresql://10.0.0.1:5433/other");
  EXPECT_FALSE(found->readonly);
  EXPECT_EQ(found->updated_at_ms, 5000);
  EXPECT_EQ(found->created_at_ms, 1000);
  store_->Datasources().SoftDeleteDatasource("upd", 6000);
  EXPECT_FALSE(store_->Datasources().UpdateDatasource(changed));
  EXPECT_FALSE(store_->Datasources().UpdateDatasource(MakeDatasource("missing")));
}

TEST_P(DatasourceStoreTest, GrantsDecideVisibilityPerWorkspace) {
  store_->Datasources().InsertDatasource(MakeDatasource("b-ds"));
  store_->Datasources().InsertDatasource(MakeDatasource("a-ds"));
  store_->Datasources().InsertDatasource(MakeDatasource("c-ds"));
  store_->Datasources().InsertDatasourceGrant({"a-ds", "ws-a", "", 10});
  store_->Datasources().InsertDatasourceGrant({"b-ds", "ws-a", "", 11});
  store_->Datasources().InsertDatasourceGrant({"b-ds", "ws-a", "", 99});  // idempotent
  store_->Datasources().InsertDatasourceGrant({"b-ds", "ws-b", "", 12});
  auto alpha = store_->Datasources().ListDatasourcesGrantedTo("ws-a");
  ASSERT_EQ(alpha.size(), 2u);
  EXPECT_EQ(alpha[0].name, "a-ds");
  EXPECT_EQ(alpha[1].name, "b-ds");
  EXPECT_TRUE(store_->Datasources().IsDatasourceGranted("b-ds", "ws-b"));
  EXPECT_FALSE(store_->Datasources().IsDatasourceGranted("c-ds", "ws-a"));
  auto grants = store_->Datasources().ListDatasourceGrants("b-ds");
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_EQ(grants[0].granted_at_ms, 11);
  EXPECT_TRUE(store_->Datasources().DeleteDatasourceGrant("b-ds", "ws-b"));
  EXPECT_FALSE(store_->Datasources().DeleteDatasourceGrant("b-ds", "ws-b"));
  EXPECT_FALSE(store_->Datasources().IsDatasourceGranted("b-ds", "ws-b"));
  // A deleted datasource is granted to nobody.
  store_->Datasources().SoftDeleteDatasource("a-ds", 20);
  EXPECT_FALSE(store_->Datasources().IsDatasourceGranted("a-ds", "ws-a"));
  EXPECT_EQ(store_->Datasources().ListDatasourcesGrantedTo("ws-a").size(), 1u);
}

// Migration 0011: the last test is typed columns, an observation that never moves updated_at
// and survives an edit of the row.
TEST_P(DatasourceStoreTest, LastTestIsWrittenDownAsAnObservation) {
  store_->Datasources().InsertDatasource(MakeDatasource("health"));
  EXPECT_FALSE(
      store_->Datasources().FindDatasource("health")->last_test.has_value());  // never tested
  const int64_t updated = store_->Datasources().FindDatasource("health")->updated_at_ms;
  store_->Datasources().SetDatasourceLastTest(
      "health", DatasourceLastTest{1000, false, 41, "pipeline.node.query_failed"});
  auto failed = store_->Datasources().FindDatasource("health")->last_test;
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->tested_at_ms, 1000);
  EXPECT_FALSE(failed->ok);
  EXPECT_EQ(failed->latency_ms, 41);
  EXPECT_EQ(failed->error_code, "pipeline.node.query_failed");
  EXPECT_EQ(store_->Datasources().FindDatasource("health")->updated_at_ms, updated);
  // An edit keeps the observation; the next test replaces it whole (the code is cleared).
  DatasourceRecord edited = *store_->Datasources().FindDatasource("health");
  edited.display_name = "Edited";
  edited.updated_at_ms = updated + 5;
  ASSERT_TRUE(store_->Datasources().UpdateDatasource(edited));
  EXPECT_EQ(store_->Datasources().ListDatasources().front().last_test->latency_ms, 41);
  store_->Datasources().SetDatasourceLastTest("health", DatasourceLastTest{2000, true, 3, ""});
  auto ok = store_->Datasources().FindDatasource("health")->last_test;
  ASSERT_TRUE(ok.has_value());
  EXPECT_TRUE(ok->ok);
  EXPECT_EQ(ok->tested_at_ms, 2000);
  EXPECT_EQ(ok->error_code, "");
}

INSTANTIATE_TEST_SUITE_P(Backends, DatasourceStoreTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres),
                         [](const auto& info) {
                           return info.param == Backend::kSqlite ? "Sqlite" : "Postgres";
                         });

}  // namespace
}  // namespace dp
