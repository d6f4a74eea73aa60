// Pool limits, connection tests, unreachable datasources (never leaking the password),
// permission refusals and readonly sessions.
#include <thread>

#include "connector_test_support.hpp"

namespace dp::test {
namespace {

const std::string kSecret = "S3cret-Pw-zz81";

void CheckPoolExhaustion(ConnectorConfig config) {
  config.pool.max_size = 1;
  config.pool.acquire_timeout_ms = 300;
  auto connector = MakeConnector(config);
  {
    auto held = connector->Acquire();
    auto start = std::chrono::steady_clock::now();
    auto error = CatchDomainError([&] { connector->Acquire(); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->code(), errc::kNodeConnectionFailed);
    EXPECT_EQ(error->details()["reason"], "pool_exhausted");
    double elapsed = SecondsSince(start);
    EXPECT_GE(elapsed, 0.25);
    EXPECT_LT(elapsed, 2.0);
  }
  // Released: the same single session is reused.
  auto again = connector->Acquire();
  EXPECT_TRUE(again->Ping(1000));
  EXPECT_EQ(connector->pool().total(), 1);
}

TEST_F(PostgresConnectorTest, PoolAcquireTimesOutWhenExhausted) { CheckPoolExhaustion(config_); }
TEST_F(MysqlConnectorTest, PoolAcquireTimesOutWhenExhausted) { CheckPoolExhaustion(config_); }
TEST_F(SqliteConnectorTest, PoolAcquireTimesOutWhenExhausted) { CheckPoolExhaustion(config_); }

TEST_F(SqliteConnectorTest, PoolEvictsIdleSessionsAboveMinIdle) {
  ConnectorConfig config = config_;
  config.pool.min_idle = 1;
  config.pool.idle_timeout_ms = 50;
  auto connector = MakeConnector(config);
  {
    auto a = connector->Acquire();
    auto b = connector->Acquire();
    auto c = connector->Acquire();
  }
  EXPECT_EQ(connector->pool().idle(), 3);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  connector->pool().EvictIdle();
  EXPECT_EQ(connector->pool().idle(), 1);
  EXPECT_EQ(connector->pool().total(), 1);
}

TEST_F(PostgresConnectorTest, PoolValidatesIdleSessionsAndReplacesDeadOnes) {
  ConnectorConfig config = config_;
  config.pool.max_size = 2;
  config.pool.validate_after_idle_ms = 0;
  config.pool.validation_query = "SELECT 1";
  auto connector = MakeConnector(config);
  std::string victim;
  {
    auto lease = connector->Acquire();
    lease->Query("SELECT pg_backend_pid()::text AS pid", {}, QueryOptions{},
                 [&](const RowView& row) { return victim = row.Wire(0).get<std::string>(), true; });
  }
  ASSERT_FALSE(victim.empty());
  // Kill the idle pooled session from outside, as a server restart or idle cut would.
  connector_->Acquire()->Execute("SELECT pg_terminate_backend(" + victim + ")");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto lease = connector->Acquire();  // validation drops the dead session, opens a new one
  std::string pid;
  lease->Query("SELECT pg_backend_pid()::text AS pid", {}, QueryOptions{},
               [&](const RowView& row) { return pid = row.Wire(0).get<std::string>(), true; });
  EXPECT_FALSE(pid.empty());
  EXPECT_NE(pid, victim);
  EXPECT_EQ(connector->pool().total(), 1);
}

// A pooled session the server closed (a restart, an idle cut) between two statements, so
// recently used that the pool would not validate it: the next statement still succeeds, on a
// fresh session, instead of failing its node with datasource_unreachable.
void CheckStatementSurvivesAClosedPooledSession(ConnectorConfig config,
                                                const std::string& session_id_sql,
                                                const std::string& kill_sql_prefix,
                                                const std::string& kill_sql_suffix,
                                                Connector& admin) {
  config.pool.max_size = 2;
  config.pool.validate_after_idle_ms = 60'000;
  auto connector = MakeConnector(config);
  std::string victim;
  connector->Query(session_id_sql, {}, QueryOptions{}, [&](const RowView& row) {
    return victim = row.Wire(0).get<std::string>(), true;
  });
  ASSERT_FALSE(victim.empty());
  admin.Acquire()->Execute(kill_sql_prefix + victim + kill_sql_suffix);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::string now;
  connector->Query(session_id_sql, {}, QueryOptions{},
                   [&](const RowView& row) { return now = row.Wire(0).get<std::string>(), true; });
  EXPECT_FALSE(now.empty());
  EXPECT_NE(now, victim);
}

TEST_F(PostgresConnectorTest, AStatementSurvivesAPooledSessionTheServerClosed) {
  CheckStatementSurvivesAClosedPooledSession(config_, "SELECT pg_backend_pid()::text AS id",
                                             "SELECT pg_terminate_backend(", ")", *connector_);
}

TEST_F(MysqlConnectorTest, AStatementSurvivesAPooledSessionTheServerClosed) {
  CheckStatementSurvivesAClosedPooledSession(config_, "SELECT CAST(CONNECTION_ID() AS CHAR) AS id",
                                             "KILL ", "", *connector_);
}

void ExpectUnreachableWithoutSecret(Connector& connector) {
  auto error = CatchDomainError([&] { connector.Acquire(); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), errc::kDatasourceUnreachable);
  EXPECT_EQ(std::string(error->what()).find(kSecret), std::string::npos) << error->what();
  EXPECT_EQ(error->ToJson().dump().find(kSecret), std::string::npos);
  ConnectionTestResult failed = connector.Test();
  EXPECT_FALSE(failed.connected);
  EXPECT_EQ(failed.error_class, "pipeline.execution.datasource_unreachable");
  EXPECT_EQ(failed.ToJson().dump().find(kSecret), std::string::npos);
}

void CheckTestAndUnreachable(Connector& live, ConnectorConfig config, bool password_checked) {
  ConnectionTestResult ok = live.Test();
  EXPECT_TRUE(ok.connected) << ok.error;
  EXPECT_FALSE(ok.server_version.empty());
  EXPECT_EQ(ok.ToJson()["connected"], true);

  ConnectorConfig closed_port = config;
  closed_port.password = kSecret;
  closed_port.port = 1;  // nobody listens there
  ExpectUnreachableWithoutSecret(*MakeConnector(closed_port));
  if (password_checked) {
    ConnectorConfig wrong_password = config;
    wrong_password.password = kSecret;
    ExpectUnreachableWithoutSecret(*MakeConnector(wrong_password));
  }
}

// The loopback PostgreSQL may trust local logins, so only MariaDB checks a wrong password.
TEST_F(PostgresConnectorTest, TestAndUnreachable) {
  CheckTestAndUnreachable(*connector_, config_, false);
}
TEST_F(MysqlConnectorTest, TestAndUnreachable) {
  CheckTestAndUnreachable(*connector_, config_, true);
}

TEST(SqliteSharedMemoryTest, UriNamedMemoryDatabaseIsSharedAcrossPooledSessions) {
  ConnectorConfig config = SqliteConfig("file:dp_conn_shared_" + std::to_string(::getpid()) +
                                        "?mode=memory&cache=shared");
  auto connector = MakeConnector(config);
  auto first = connector->Acquire();
  first->Execute("CREATE TABLE staged (x INTEGER); INSERT INTO staged VALUES (41), (1)");
  auto second = connector->Acquire();  // a different session on the same in-memory database
  Json sum;
  second->Query("SELECT sum(x) AS s FROM staged", {}, QueryOptions{},
                [&](const RowView& row) { return sum = row.Wire(0), true; });
  EXPECT_EQ(sum, 42);
  EXPECT_EQ(connector->pool().total(), 2);
}

TEST_F(SqliteConnectorTest, MissingFileIsUnreachableWhenReadonly) {
  ConnectorConfig config = SqliteConfig("/nonexistent/dir/dp.db");
  config.readonly = true;
  auto connector = MakeConnector(config);
  auto error = CatchDomainError([&] { connector->Acquire(); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), errc::kDatasourceUnreachable);
}

TEST_F(SqliteConnectorTest, ReadonlyOpenRefusesWrites) {
  connector_->Acquire()->Execute("CREATE TABLE t (x INTEGER)");
  ConnectorConfig config = config_;
  config.readonly = true;
  auto readonly = MakeConnector(config);
  auto conn = readonly->Acquire();
  int64_t rows = 0;
  conn->Query("SELECT * FROM t", {}, QueryOptions{}, [&](const RowView&) { return ++rows, true; });
  EXPECT_EQ(rows, 0);
  auto error = CatchDomainError([&] { conn->Execute("INSERT INTO t VALUES (1)"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), errc::kNodeQueryFailed);
  // ATTACH (a filesystem primitive) is disabled for in-process engines.
  auto attach = CatchDomainError(
      [&] { connector_->Acquire()->Execute("ATTACH DATABASE ':memory:' AS other"); });
  ASSERT_TRUE(attach);
}

TEST_F(PostgresConnectorTest, ReadonlyAndPermissionRefusals) {
  auto conn = connector_->Acquire();
  conn->Execute("DROP TABLE IF EXISTS dp_forbidden; CREATE TABLE dp_forbidden (x int)");
  // The owner revokes its own SELECT: the table exists but this login cannot read it.
  conn->Execute("REVOKE ALL ON dp_forbidden FROM CURRENT_USER");
  auto forbidden = CatchDomainError([&] { conn->Execute("SELECT * FROM dp_forbidden"); });
  ASSERT_TRUE(forbidden);
  EXPECT_EQ(forbidden->code(), errc::kDatasourceTableForbidden);
  EXPECT_EQ(forbidden->details()["sqlstate"], "42501");
  auto syntax = CatchDomainError([&] { conn->Execute("SELEC 1"); });
  ASSERT_TRUE(syntax);
  EXPECT_EQ(syntax->code(), errc::kNodeQueryFailed);
  conn->Execute("DROP TABLE dp_forbidden");

  ConnectorConfig config = config_;
  config.readonly = true;
  auto readonly = MakeConnector(config);
  auto write =
      CatchDomainError([&] { readonly->Acquire()->Execute("CREATE TABLE dp_ro_probe (x int)"); });
  ASSERT_TRUE(write);
  EXPECT_EQ(write->code(), errc::kNodeQueryFailed);
  EXPECT_EQ(write->details()["sqlstate"], "25006");
}

TEST_F(MysqlConnectorTest, ReadonlyAndPermissionRefusals) {
  auto conn = connector_->Acquire();
  // The test login holds privileges on its own database only.
  auto forbidden = CatchDomainError([&] { conn->Execute("SELECT * FROM mysql.user"); });
  ASSERT_TRUE(forbidden);
  EXPECT_EQ(forbidden->code(), errc::kDatasourceTableForbidden);
  EXPECT_EQ(forbidden->details()["vendor_code"], 1142);

  ConnectorConfig config = config_;
  config.readonly = true;
  auto readonly = MakeConnector(config);
  auto ro = readonly->Acquire();
  conn->Execute("DROP TABLE IF EXISTS dp_ro_probe");
  conn->Execute("CREATE TABLE dp_ro_probe (x INT)");
  auto write = CatchDomainError([&] { ro->Execute("INSERT INTO dp_ro_probe VALUES (1)"); });
  ASSERT_TRUE(write);
  EXPECT_EQ(write->code(), errc::kNodeQueryFailed);
  conn->Execute("DROP TABLE dp_ro_probe");
}

}  // namespace
}  // namespace dp::test
