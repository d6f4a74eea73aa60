#pragma once
// The learned-semantics stack over a real metadata store (SQLite in memory, or the test
// PostgreSQL when DP_TEST_PG_META_URL is set and the suite asks for it): DatasourceService with
// one writable SQLite datasource `lab` granted to two workspaces, SemanticsService as its fact
// enricher, the datasource and semantics tools on the MCP dispatcher and the datasource routes
// on RestApi — driven the way the HTTP layer drives them.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <pqxx/pqxx>
#include <string>

#include "datapipelines/mcp/tools/datasource_tools.hpp"
#include "datapipelines/mcp/tools/semantics_tools.hpp"
#include "datapipelines/rest/datasource_routes.hpp"
#include "datapipelines/service/datasources/datasource_explorer.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/semantics/semantics_service.hpp"
#include "datapipelines/store/learned_fact_store.hpp"
#include "datapipelines/store/pipeline_store.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"
#include "support/surface_stack.hpp"
#include "support/test_env.hpp"

namespace dp::test {

enum class MetadataBackend { kSqlite, kPostgres };

inline const char* BackendName(MetadataBackend backend) {
  return backend == MetadataBackend::kSqlite ? "sqlite" : "postgres";
}

class SemanticsStack : public SurfaceStack {
 protected:
  virtual MetadataBackend Backend() const { return MetadataBackend::kSqlite; }

  void SetUp() override {
    std::string url = ":memory:";
    if (Backend() == MetadataBackend::kPostgres) {
      DP_REQUIRE_SERVICE_URL(pg, "DP_TEST_PG_META_URL");
      static std::atomic<int> counter{0};
      pg_url_ = pg;
      schema_ = "dp_sem_" + std::to_string(::getpid()) + "_" + std::to_string(++counter);
      ExecPg("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE; CREATE SCHEMA " + schema_);
      url = pg + (pg.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" +
            schema_;
    }
    OpenSurfaces(url);
    DatasourceServicePorts ports;
    ports.fact_enricher = [this]() -> LearnedFactsEnricher* { return semantics_.get(); };
    datasources_ = std::make_unique<DatasourceService>(
        store_->Datasources(), store_->Workspaces(), *audit_,
        SecretBox::FromBase64(Base64Encode(std::string(32, 'k'))), DatasourceServiceOptions{},
        std::move(ports));
    explorer_ = std::make_unique<DatasourceExplorer>(*datasources_);
    pipeline_store_ = OpenPipelineStore(*store_);
    fact_store_ = OpenLearnedFactStore(*store_);
    semantics_ = std::make_unique<SemanticsService>(*fact_store_, *datasources_, *explorer_,
                                                    *pipeline_store_, *audit_);
    BindDatasourceTools(catalog_, *datasources_, *explorer_);
    BindSemanticsTools(catalog_, *semantics_);
    StartMcp();
    rest_->Mount("/api/v1/datasources", DatasourceRoutes(*datasources_, *explorer_));
    AddUser("alice", "default", MemberFlags{true, true, false}, Scope::kAuthor);
    AddUser("bob", "default", MemberFlags{true, true, false}, Scope::kAuthor);
    AddUser("victor", "default", MemberFlags{}, Scope::kRead);
    AddUser("olga", "other", MemberFlags{true, true, false}, Scope::kAuthor);
    AddUser("wendy", "other", MemberFlags{true, true, true}, Scope::kAuthor);
    AddUser("nora", "nowhere", MemberFlags{true, true, false}, Scope::kAuthor);
    lab_path_ =
        (std::filesystem::temp_directory_path() / ("dp-semantics-lab-" + NewUuid() + ".sqlite"))
            .string();
    ExecLab(
        "CREATE TABLE weather (ts TEXT, temp_c REAL, unit TEXT);"
        "CREATE TABLE trips (id INTEGER, pickup_at TEXT, zone_id INTEGER, fare REAL);"
        "CREATE TABLE zones (id INTEGER, name TEXT);"
        "INSERT INTO weather VALUES ('2024-01-01T00:00:00', 21.4, 'C'), "
        "('2024-01-01T01:00:00', 20.9, 'C');"
        "INSERT INTO zones VALUES (132, 'Airport');");
    datasources_->CreateAsOperator({{"name", "lab"},
                                    {"display_name", "Lab"},
                                    {"dialect", "SQLITE"},
                                    {"jdbc_url", "jdbc:sqlite:" + lab_path_}},
                                   {"default", "other"});
  }

  void TearDown() override {
    explorer_.reset();
    datasources_.reset();
    semantics_.reset();
    store_.reset();
    if (!schema_.empty()) ExecPg("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    if (!lab_path_.empty()) std::filesystem::remove(lab_path_);
  }

  void ExecPg(const std::string& sql) {
    pqxx::connection conn(pg_url_);
    pqxx::nontransaction tx(conn);
    tx.exec(sql);
  }

  // Runs DDL/DML on the datasource's own file, the way an operator changes a table under us.
  void ExecLab(const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(lab_path_.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    std::string message = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    ASSERT_EQ(rc, SQLITE_OK) << message;
  }

  // A unit fact on weather.temp_c as `user`, with evidence unless told otherwise.
  Json RecordUnit(const std::string& user, const std::string& text, bool evidence = true) {
    Json args{{"scope", "DATASOURCE"},
              {"datasource", "lab"},
              {"kind", "unit"},
              {"fact", text},
              {"refs", Json::array({{{"table", "weather"}, {"column", "temp_c"}}})}};
    if (evidence) args["evidence_sql"] = "SELECT unit, temp_c FROM weather ORDER BY ts LIMIT 2";
    return ToolOk(user, "semantics_record", args);
  }

  // A pipeline entity in `workspace` (the source_pipeline link's target).
  std::string SeedPipeline(const std::string& workspace, const std::string& name) {
    auto ws = store_->Workspaces().FindWorkspaceByName(workspace);
    PipelineRecord pipeline{ws->id, NewUuid(), name, "someone", NowMs()};
    PipelineVersionRecord version;
    version.pipeline_id = pipeline.id;
    version.version = 1;
    version.status = "RELEASED";
    version.body_hash = "h";
    version.created_by = version.updated_by = "someone";
    pipeline_store_->InsertPipeline(pipeline, version);
    return pipeline.id;
  }

  // The facts block of one column of a datasources_get_columns answer.
  static Json ColumnFacts(const Json& columns, const std::string& column) {
    for (const auto& entry : columns) {
      if (entry["name"] == column) return entry.value("facts", Json::array());
    }
    return Json();
  }
  static Json TableFacts(const Json& listing, const std::string& table) {
    for (const auto& entry : listing["tables"]) {
      if (entry["name"] == table) return entry.value("facts", Json::array());
    }
    return Json();
  }

  std::unique_ptr<DatasourceService> datasources_;
  std::unique_ptr<DatasourceExplorer> explorer_;
  std::unique_ptr<PipelineStore> pipeline_store_;
  std::unique_ptr<LearnedFactStore> fact_store_;
  std::unique_ptr<SemanticsService> semantics_;
  std::string lab_path_, pg_url_, schema_;
};

// The same test body on both metadata backends.
class BackendSemanticsStack : public SemanticsStack,
                              public ::testing::WithParamInterface<MetadataBackend> {
 protected:
  MetadataBackend Backend() const override { return GetParam(); }
};

}  // namespace dp::test
