// Typed binds, injection safety, streaming with bounded memory, cancel and timeout.
#include <fstream>
#include <thread>

#include "connector_test_support.hpp"
#include "datapipelines/connectors/pool/cancel_token.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp::test {
namespace {

const std::string kHostile = "'; DROP TABLE dp_bind_t; -- \\' \" `";

Json QueryRows(Connection& conn, const std::string& sql, const BindMap& binds = {}) {
  Json rows = Json::array();
  conn.Query(sql, binds, QueryOptions{}, [&](const RowView& row) {
    rows.push_back(row.ToWireObject());
    return true;
  });
  return rows;
}

void CheckBinds(Connector& connector) {
  DialectSql sql = SqlFor(connector.dialect());
  auto conn = connector.Acquire();
  conn->Execute("DROP TABLE IF EXISTS dp_bind_t");
  conn->Execute(
      "CREATE TABLE dp_bind_t (id INTEGER, name VARCHAR(100), amount DECIMAL(10,2), at_ts " +
      sql.timestamp_type + ", payload " + sql.blob_type + ", flag BOOLEAN)");
  std::string blob = Base64Encode(std::string("\x00\x01\xfe\xff", 4));
  BindMap binds{{"id", {CanonicalType::kInteger, 1}},
                {"name", {CanonicalType::kString, kHostile}},
                {"amount", {CanonicalType::kDecimal, "12.50"}},
                {"ts", {CanonicalType::kTimestamp, "2026-08-05T14:30:00-05:00"}},
                {"payload", {CanonicalType::kBinary, blob}},
                {"flag", {CanonicalType::kBoolean, true}}};
  conn->Execute("INSERT INTO dp_bind_t VALUES (:id, :name, :amount, :ts, :payload, :flag)", binds);
  conn->Execute(
      "INSERT INTO dp_bind_t VALUES (:id, :name, NULL, NULL, NULL, NULL)",
      {{"id", {CanonicalType::kBigInteger, "2"}}, {"name", {CanonicalType::kString, nullptr}}});

  Json rows = QueryRows(
      *conn,
      "SELECT id, name, amount, at_ts, payload FROM dp_bind_t WHERE name = :name AND id = :id",
      {{"name", {CanonicalType::kString, kHostile}}, {"id", {CanonicalType::kInteger, 1}}});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["name"], kHostile);  // stayed data: stored and matched verbatim
  EXPECT_EQ(rows[0]["amount"], 12.5);
  EXPECT_EQ(rows[0]["payload"], blob);
  if (connector.dialect() == Dialect::kSqlite) {
    EXPECT_EQ(rows[0]["at_ts"], "2026-08-05 19:30:00");  // bound in SQLite's own text form
  } else {
    EXPECT_EQ(rows[0]["at_ts"], "2026-08-05T19:30:00.000000Z");
  }
  Json all = QueryRows(*conn, "SELECT id, name FROM dp_bind_t ORDER BY id");
  ASSERT_EQ(all.size(), 2u);  // the table survived the hostile value
  EXPECT_TRUE(all[1]["name"].is_null());

  // A placeholder-looking token inside a literal is text; a missing bind is refused.
  EXPECT_EQ(QueryRows(*conn, "SELECT ':id' AS s")[0]["s"], ":id");
  auto missing = CatchDomainError([&] { QueryRows(*conn, "SELECT :nope AS s"); });
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->code(), errc::kRequestInvalid);
  conn->Execute("DROP TABLE dp_bind_t");
}

TEST_F(PostgresConnectorTest, TypedBindsAreInjectionSafe) {
  CheckBinds(*connector_);
  auto conn = connector_->Acquire();
  // `::` casts next to a placeholder are not placeholders.
  Json rows = QueryRows(*conn, "SELECT :v::text AS v, 1::int AS one",
                        {{"v", {CanonicalType::kString, "abc"}}});
  EXPECT_EQ(rows[0]["v"], "abc");
  EXPECT_EQ(rows[0]["one"], 1);
}
TEST_F(MysqlConnectorTest, TypedBindsAreInjectionSafe) { CheckBinds(*connector_); }
TEST_F(SqliteConnectorTest, TypedBindsAreInjectionSafe) { CheckBinds(*connector_); }
TEST_F(DuckdbConnectorTest, TypedBindsAreInjectionSafe) {
  CheckBinds(*connector_);
  auto conn = connector_->Acquire();
  Json rows = QueryRows(*conn, "SELECT :v::VARCHAR AS v, 1::INTEGER AS one, $$:x$$ AS d",
                        {{"v", {CanonicalType::kString, "abc"}}});
  EXPECT_EQ(rows[0]["v"], "abc");
  EXPECT_EQ(rows[0]["one"], 1);
  EXPECT_EQ(rows[0]["d"], ":x");
}

// Integer wire values: INTEGER is a number, BIGINTEGER a string (engines differ for literals).
int64_t AsInt(const Json& value) {
  return value.is_string() ? std::stoll(value.get<std::string>()) : value.get<int64_t>();
}

long RssKb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return 0;
}

void CheckStreaming(Connector& connector) {
  auto conn = connector.Acquire();
  // Warm the engine first: an embedded engine's first statement sets up its allocator and
  // worker threads, which is not row buffering.
  QueryOptions warm;
  warm.max_rows = 1;
  conn->Query(SqlFor(connector.dialect()).rows_100k, {}, warm, [](const RowView&) { return true; });
  long before = RssKb(), peak = before;
  int64_t count = 0, sum = 0, sum_pad = 0;
  std::vector<ColumnSchema> seen;
  QueryResult result = conn->Query(
      SqlFor(connector.dialect()).rows_100k, {}, QueryOptions{},
      [&](const RowView& row) {
        sum += AsInt(row.Wire(0));
        sum_pad += static_cast<int64_t>(row.text(1)->size());
        if (++count % 10000 == 0) peak = std::max(peak, RssKb());
        return true;
      },
      [&](const std::vector<ColumnSchema>& columns) { seen = columns; });
  EXPECT_EQ(result.row_count, 100000);
  EXPECT_EQ(count, 100000);
  EXPECT_EQ(sum, 100000LL * 100001 / 2);  // every n from 1 to 100000 exactly once
  EXPECT_EQ(sum_pad, 100000LL * 1000);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].name, "n");
  // ~100 MB of row data went through; a buffered read would grow RSS by about that much.
#if !defined(__SANITIZE_THREAD__)
  EXPECT_LT(peak - before, 40 * 1024) << "RSS grew by " << (peak - before) << " kB";
#else
  // Under ThreadSanitizer every byte touched also touches its shadow, so RSS says nothing about
  // buffering there; the normal build holds the bound.
  (void)peak;
#endif

  // max_rows stops early and marks the result truncated; the session stays usable.
  QueryOptions capped;
  capped.max_rows = 10;
  int64_t delivered = 0;
  QueryResult head = conn->Query(SqlFor(connector.dialect()).rows_100k, {}, capped,
                                 [&](const RowView&) { return ++delivered, true; });
  EXPECT_EQ(delivered, 10);
  EXPECT_TRUE(head.truncated);
  EXPECT_EQ(AsInt(QueryRows(*conn, "SELECT 1 AS one")[0]["one"]), 1);
}

TEST_F(PostgresConnectorTest, StreamsRowsWithBoundedMemory) { CheckStreaming(*connector_); }
TEST_F(MysqlConnectorTest, StreamsRowsWithBoundedMemory) { CheckStreaming(*connector_); }
TEST_F(SqliteConnectorTest, StreamsRowsWithBoundedMemory) { CheckStreaming(*connector_); }
TEST_F(DuckdbConnectorTest, StreamsRowsWithBoundedMemory) { CheckStreaming(*connector_); }

// PostgreSQL reads a large result through a cursor in FETCH batches: every way such a read
// ends (all rows, stopped by the caller, truncated at max_rows, failing mid-way, a statement
// that cannot be a cursor) delivers the right rows and leaves the session idle, no transaction
// open, ready for the next statement.
TEST_F(PostgresConnectorTest, LargeReadsAreBatchedAndEveryEndingLeavesTheSessionIdle) {
  auto conn = connector_->Acquire();
  const std::string rows = "SELECT n FROM generate_series(1, 50000) AS g(n) ORDER BY n";
  auto idle = [&] {
    // SAVEPOINT succeeds only inside a transaction block: refused means none was left open.
    auto outside = CatchDomainError([&] { conn->Execute("SAVEPOINT dp_probe"); });
    EXPECT_TRUE(outside) << "a transaction was left open";
    if (!outside) conn->Execute("ROLLBACK");
  };
  // All rows, in order, across several batches.
  int64_t count = 0, last = 0;
  bool ordered = true;
  QueryResult all = conn->Query(rows, {}, QueryOptions{}, [&](const RowView& row) {
    int64_t n = AsInt(row.Wire(0));
    ordered = ordered && n == last + 1;
    last = n;
    return ++count, true;
  });
  EXPECT_EQ(count, 50000);
  EXPECT_EQ(all.row_count, 50000);
  EXPECT_TRUE(ordered);
  EXPECT_FALSE(all.truncated);
  idle();

  // The caller stops mid-way (past the first batch).
  count = 0;
  QueryResult stopped =
      conn->Query(rows, {}, QueryOptions{}, [&](const RowView&) { return ++count < 20000; });
  EXPECT_EQ(count, 20000);
  EXPECT_TRUE(stopped.truncated);
  idle();

  // A cap large enough for the cursor path: exactly max_rows rows, marked truncated.
  QueryOptions capped;
  capped.max_rows = 10000;
  count = 0;
  QueryResult head = conn->Query(rows, {}, capped, [&](const RowView&) { return ++count, true; });
  EXPECT_EQ(count, 10000);
  EXPECT_TRUE(head.truncated);
  idle();

  // A failure after the first batches: the rows before it were delivered, the error is the
  // statement's, and the session is usable.
  count = 0;
  auto failed = CatchDomainError([&] {
    conn->Query("SELECT 1 / (30000 - n) AS x FROM generate_series(1, 50000) AS g(n)", {},
                QueryOptions{}, [&](const RowView&) { return ++count, true; });
  });
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->code(), errc::kNodeQueryFailed);
  EXPECT_GT(count, 0);
  EXPECT_LT(count, 30000);
  idle();

  // The callback itself fails (a result store refusing the rows): the session is usable.
  EXPECT_THROW(conn->Query(rows, {}, QueryOptions{},
                           [&](const RowView& row) -> bool {
                             if (AsInt(row.Wire(0)) == 9000) throw std::runtime_error("full");
                             return true;
                           }),
               std::runtime_error);
  idle();

  // A WITH the server refuses as a cursor (data-modifying) still runs, row by row.
  conn->Execute("DROP TABLE IF EXISTS dp_cursor_t");
  conn->Execute("CREATE TABLE dp_cursor_t (n INTEGER)");
  count = 0;
  conn->Query(
      "WITH ins AS (INSERT INTO dp_cursor_t SELECT generate_series(1, 3) RETURNING n) "
      "SELECT n FROM ins",
      {}, QueryOptions{}, [&](const RowView&) { return ++count, true; });
  EXPECT_EQ(count, 3);
  EXPECT_EQ(AsInt(QueryRows(*conn, "SELECT count(*) AS n FROM dp_cursor_t")[0]["n"]), 3);
  conn->Execute("DROP TABLE dp_cursor_t");
  idle();
}

void ExpectInterrupted(const std::optional<DomainError>& error, const char* reason) {
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code(), errc::kNodeQueryFailed);
  EXPECT_EQ(error->details().value("reason", ""), reason) << error->what();
}

void CheckCancelAndTimeout(Connector& connector) {
  std::string sleep = SqlFor(connector.dialect()).sleep10;
  auto conn = connector.Acquire();
  // Cancel from another thread.
  CancelToken token;
  QueryOptions options;
  options.cancel = &token;
  auto start = std::chrono::steady_clock::now();
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    token.Cancel();
  });
  auto cancelled = CatchDomainError(
      [&] { conn->Query(sleep, {}, options, [](const RowView&) { return true; }); });
  canceller.join();
  ExpectInterrupted(cancelled, "cancelled");
  EXPECT_LT(SecondsSince(start), 2.5);

  // A cancel that lands before the statement starts (a sibling failed first) still stops it.
  CancelToken early;
  early.Cancel();
  QueryOptions early_options;
  early_options.cancel = &early;
  start = std::chrono::steady_clock::now();
  auto refused = CatchDomainError(
      [&] { conn->Query(sleep, {}, early_options, [](const RowView&) { return true; }); });
  ExpectInterrupted(refused, "cancelled");
  EXPECT_LT(SecondsSince(start), 2.5);

  // Timeout: the statement is stopped on the server at the deadline.
  QueryOptions timed;
  timed.timeout_ms = 1000;
  start = std::chrono::steady_clock::now();
  auto timeout =
      CatchDomainError([&] { conn->Query(sleep, {}, timed, [](const RowView&) { return true; }); });
  ExpectInterrupted(timeout, "timeout");
  double elapsed = SecondsSince(start);
  EXPECT_GE(elapsed, 0.9);
  EXPECT_LT(elapsed, 3.0);
  // The same session runs the next statement at once.
  start = std::chrono::steady_clock::now();
  EXPECT_EQ(AsInt(QueryRows(*conn, "SELECT 1 AS one")[0]["one"]), 1);
  EXPECT_LT(SecondsSince(start), 1.0);
}

TEST_F(PostgresConnectorTest, CancelAndTimeoutStopTheStatement) {
  CheckCancelAndTimeout(*connector_);
  // Nothing of ours is still sleeping on the server.
  auto conn = connector_->Acquire();
  Json active = QueryRows(*conn,
                          "SELECT count(*) AS n FROM pg_stat_activity WHERE state <> 'idle' "
                          "AND (query = 'SELECT pg_sleep(10)' OR query LIKE 'FETCH FORWARD %' "
                          "OR query IN ('BEGIN', 'ROLLBACK')) AND pid <> pg_backend_pid()");
  EXPECT_EQ(AsInt(active[0]["n"]), 0);
}
TEST_F(MysqlConnectorTest, CancelAndTimeoutStopTheStatement) {
  CheckCancelAndTimeout(*connector_);
  auto conn = connector_->Acquire();
  Json active = QueryRows(*conn,
                          "SELECT count(*) AS n FROM information_schema.PROCESSLIST "
                          "WHERE INFO = 'SELECT SLEEP(10)'");
  EXPECT_EQ(AsInt(active[0]["n"]), 0);
}
TEST_F(SqliteConnectorTest, CancelAndTimeoutStopTheStatement) {
  CheckCancelAndTimeout(*connector_);
}
TEST_F(DuckdbConnectorTest, CancelAndTimeoutStopTheStatement) {
  CheckCancelAndTimeout(*connector_);
}

TEST_F(SqliteConnectorTest, ConfiguredQueryTimeoutApplies) {
  ConnectorConfig config = config_;
  config.query_timeout_seconds = 1;
  auto connector = MakeConnector(config);
  auto start = std::chrono::steady_clock::now();
  auto error = CatchDomainError([&] {
    connector->Query(SqlFor(Dialect::kSqlite).sleep10, {}, QueryOptions{},
                     [](const RowView&) { return true; });
  });
  ExpectInterrupted(error, "timeout");
  EXPECT_LT(SecondsSince(start), 3.0);
}

}  // namespace
}  // namespace dp::test
