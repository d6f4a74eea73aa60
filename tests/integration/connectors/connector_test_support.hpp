#pragma once
// Per-dialect fixtures and SQL snippets shared by the connector integration tests.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "support/test_env.hpp"

namespace dp::test {

// Dialect-specific statements the shared checks need.
struct DialectSql {
  std::string sleep10;    // a statement that runs ~10 s on the server
  std::string rows_100k;  // 100 000 rows of (n, 1000-char text)
  std::string timestamp_type;
  std::string blob_type;
};

inline DialectSql SqlFor(Dialect dialect) {
  switch (dialect) {
    case Dialect::kPostgres:
      return {"SELECT pg_sleep(10)",
              "SELECT g AS n, repeat('x', 1000) AS pad FROM generate_series(1, 100000) g",
              "timestamptz", "bytea"};
    case Dialect::kMysql:
      return {
          "SELECT SLEEP(10)",
          "SELECT a.d + 10*b.d + 100*c.d + 1000*e.d + 10000*f.d + 1 AS n, REPEAT('x', 1000) AS pad "
          "FROM (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL "
          "SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 "
          "UNION ALL SELECT 9) a, (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL "
          "SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 "
          "UNION ALL SELECT 8 UNION ALL SELECT 9) b, (SELECT 0 d UNION ALL SELECT 1 UNION ALL "
          "SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 "
          "UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) c, (SELECT 0 d UNION ALL "
          "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 "
          "UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) e, "
          "(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL "
          "SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 "
          "UNION ALL SELECT 9) f",
          "DATETIME(6)", "BLOB"};
    case Dialect::kDuckdb:
    case Dialect::kLake:
      return {"SELECT sum(hash(range)) FROM range(100000000000)",
              "SELECT range + 1 AS n, repeat('x', 1000) AS pad FROM range(100000)", "TIMESTAMPTZ",
              "BLOB"};
    default:
      return {
          "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c",
          "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 100000) "
          "SELECT n, printf('%.1000c', 'x') AS pad FROM c",
          "TEXT", "BLOB"};
  }
}

// A fresh SQLite database file per test, removed afterwards.
class TempSqliteFile {
 public:
  TempSqliteFile() {
    path_ = std::filesystem::temp_directory_path() /
            ("dp_connector_test_" + std::to_string(::getpid()) + "_" +
             std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + ".db");
  }
  ~TempSqliteFile() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

inline ConnectorConfig SqliteConfig(const std::string& path) {
  ConnectorConfig config;
  config.dialect = Dialect::kSqlite;
  config.sqlite_path = path;
  return config;
}

// Runs `fn` and returns the DomainError it throws (fails the test when it does not).
template <typename Fn>
std::optional<DomainError> CatchDomainError(Fn&& fn) {
  try {
    fn();
  } catch (const DomainError& error) {
    return error;
  }
  ADD_FAILURE() << "expected a DomainError";
  return std::nullopt;
}

inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Fixtures: one connector per dialect against the real server (or a temp SQLite file).
class PostgresConnectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DP_REQUIRE_SERVICE_URL(url, "DP_TEST_PG_URL");
    config_ = ConnectorConfig::FromUrl(url);
    connector_ = MakeConnector(config_);
  }
  ConnectorConfig config_;
  std::unique_ptr<Connector> connector_;
};

class MysqlConnectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DP_REQUIRE_SERVICE_URL(url, "DP_TEST_MYSQL_URL");
    config_ = ConnectorConfig::FromUrl(url);
    connector_ = MakeConnector(config_);
  }
  ConnectorConfig config_;
  std::unique_ptr<Connector> connector_;
};

class SqliteConnectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = SqliteConfig(file_.path());
    connector_ = MakeConnector(config_);
  }
  TempSqliteFile file_;
  ConnectorConfig config_;
  std::unique_ptr<Connector> connector_;
};

// A DUCKDB datasource over a fresh database file per test.
class DuckdbConnectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_.dialect = Dialect::kDuckdb;
    config_.duckdb_path = file_.path() + ".duckdb";
    // Bounded as a served engine should be: one worker thread and a memory limit. DuckDB's
    // per-thread buffers and allocator caches otherwise grow with the host's core count, which
    // made StreamsRowsWithBoundedMemory measure the machine rather than our row streaming.
    config_.duckdb_threads = 1;
    config_.duckdb_memory_limit_mb = 256;
    connector_ = MakeConnector(config_);
  }
  void TearDown() override {
    connector_.reset();
    std::error_code ec;
    std::filesystem::remove(config_.duckdb_path, ec);
    std::filesystem::remove(config_.duckdb_path + ".wal", ec);
  }
  TempSqliteFile file_;
  ConnectorConfig config_;
  std::unique_ptr<Connector> connector_;
};

}  // namespace dp::test
