// dp_bench_connector_read: reads a 1M-row PostgreSQL table through our connector (an uncapped
// read: libpq cursor FETCH batches, on_row callback) and compares the rate with
// `psql -c "COPY (same query) TO STDOUT" > /dev/null`, interleaved in the same run.
//
//   dp_bench_connector_read [--rows=N] [--rounds=R]
//   URL from DP_BENCH_PG_URL, else DP_TEST_PG_URL (never printed; psql gets it as PG* env
//   variables, not on its command line).
//
// Modes per round: COPY via psql (baseline); connector "wire" (each row → the tools' JSON
// object via RowView::ToWireObject, serialized, as preview/sql_probe answer); "cells" (each
// cell → its canonical wire value via RowView::Wire, no object, no serialization); "text"
// (driver text only, no conversion) — the split shows where the time goes; "stream" (the
// same JSON bytes as "wire", appended by WireJsonWriter into one reused buffer: no Json and
// no std::string per cell; not what the tools run, see docs/performance.md).
// Creates bench.trips_<N> with generate_series when it is absent or has the wrong row count.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_timing.hpp"
#include "datapipelines/connectors/connection.hpp"
#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/connectors/connector_config.hpp"
#include "datapipelines/connectors/wire/wire_json_writer.hpp"
#include "datapipelines/domain/domain_error.hpp"

namespace {

int64_t CountRows(dp::Connection& conn, const std::string& table) {
  int64_t count = -1;
  try {
    conn.Query("SELECT count(*) FROM " + table, {}, {}, [&](const dp::RowView& row) {
      count = std::stoll(std::string(*row.text(0)));
      return true;
    });
  } catch (const dp::DomainError&) {
    // Absent table: created below.
  }
  return count;
}

// A mix of the column types pipelines read most: BIGINT, NUMERIC(10,2), TIMESTAMPTZ, TEXT,
// BOOLEAN and a nullable TEXT.
void EnsureTable(dp::Connection& conn, const std::string& table, long rows) {
  conn.Execute("SELECT pg_advisory_lock(774411)");
  if (CountRows(conn, table) != rows) {
    std::cerr << "bench: creating " << table << " (" << rows << " rows)\n";
    conn.Execute("CREATE SCHEMA IF NOT EXISTS bench");
    conn.Execute("DROP TABLE IF EXISTS " + table);
    conn.Execute(
        "CREATE TABLE " + table +
        " AS SELECT g::bigint AS trip_id,"
        " round((random() * 90 + 2.5)::numeric, 2)::numeric(10,2) AS fare,"
        " timestamptz '2026-01-01 00:00:00+00' + g * interval '17 seconds' AS started_at,"
        " 'zone-' || (g % 263) AS pickup_zone,"
        " (g % 7 = 0) AS shared,"
        " CASE WHEN g % 5 = 0 THEN NULL ELSE 'card payment ref ' || md5(g::text) END AS note"
        " FROM generate_series(1, " +
        std::to_string(rows) + ") AS g");
    conn.Execute("ANALYZE " + table);
  }
  conn.Execute("SELECT pg_advisory_unlock(774411)");
}

// psql reads host, port, user, password and database from the environment.
void ExportPgEnvironment(const dp::ConnectorConfig& config) {
  setenv("PGHOST", config.host.c_str(), 1);
  setenv("PGPORT", std::to_string(config.port ? config.port : 5432).c_str(), 1);
  setenv("PGUSER", config.username.c_str(), 1);
  setenv("PGPASSWORD", config.password.c_str(), 1);
  setenv("PGDATABASE", config.database.c_str(), 1);
  auto ssl = config.options.find("sslmode");
  if (ssl != config.options.end()) setenv("PGSSLMODE", ssl->second.c_str(), 1);
}

double CopyRowsPerSecond(const std::string& query, long rows) {
  const std::string command =
      "psql -X -q -v ON_ERROR_STOP=1 -c \"COPY (" + query + ") TO STDOUT\" > /dev/null";
  const auto start = std::chrono::steady_clock::now();
  if (std::system(command.c_str()) != 0) throw std::runtime_error("psql COPY failed");
  return static_cast<double>(rows) / dp::bench::SecondsSince(start);
}

enum class Mode { kWire, kCells, kText, kStream };

double ConnectorRowsPerSecond(dp::Connection& conn, const std::string& query, long rows,
                              Mode mode) {
  size_t bytes = 0;
  std::string buffer;
  std::optional<dp::WireJsonWriter> writer;  // kStream: keys planned once per statement
  const auto plan = [&](const std::vector<dp::ColumnSchema>& columns) { writer.emplace(columns); };
  dp::QueryOptions options;
  options.timeout_ms = -1;
  const auto start = std::chrono::steady_clock::now();
  dp::QueryResult result = conn.Query(
      query, {}, options,
      [&](const dp::RowView& row) {
        if (mode == Mode::kWire) {
          buffer = row.ToWireObject().dump();
          bytes += buffer.size();
        } else if (mode == Mode::kStream) {
          buffer.clear();
          writer->AppendObject(row, buffer);
          bytes += buffer.size();
        } else if (mode == Mode::kCells) {
          for (size_t i = 0; i < row.size(); ++i) bytes += row.Wire(i).is_null() ? 0 : 1;
        } else {
          for (size_t i = 0; i < row.size(); ++i) bytes += row.text(i).value_or("").size();
        }
        return true;
      },
      plan);
  const double seconds = dp::bench::SecondsSince(start);
  if (result.row_count != rows || bytes == 0) throw std::runtime_error("short read");
  return static_cast<double>(rows) / seconds;
}

}  // namespace

int main(int argc, char** argv) {
  const long rows = dp::bench::FlagValue(argc, argv, "--rows", 1000000);
  const long rounds = dp::bench::FlagValue(argc, argv, "--rounds", 3);
  const std::string table =
      rows == 1000000 ? "bench.trips_1m" : "bench.trips_" + std::to_string(rows);
  const std::string query =
      "SELECT trip_id, fare, started_at, pickup_zone, shared, note FROM " + table;
  return dp::bench::ReportFailures([&] {
    const dp::ConnectorConfig config = dp::ConnectorConfig::FromUrl(dp::bench::BenchPostgresUrl());
    if (config.dialect != dp::Dialect::kPostgres) throw std::runtime_error("not a PostgreSQL URL");
    std::unique_ptr<dp::Connector> connector = dp::MakeConnector(config);
    std::unique_ptr<dp::Connection> conn = connector->Open();
    std::string server = conn->ServerVersion();
    for (char& c : server) c = c == ' ' ? '_' : c;
    EnsureTable(*conn, table, rows);
    ExportPgEnvironment(config);
    std::vector<double> copy, wire, stream, cells, text;
    for (long r = 0; r < rounds; ++r) {
      copy.push_back(CopyRowsPerSecond(query, rows));
      wire.push_back(ConnectorRowsPerSecond(*conn, query, rows, Mode::kWire));
      stream.push_back(ConnectorRowsPerSecond(*conn, query, rows, Mode::kStream));
      cells.push_back(ConnectorRowsPerSecond(*conn, query, rows, Mode::kCells));
      text.push_back(ConnectorRowsPerSecond(*conn, query, rows, Mode::kText));
      std::cerr << "  round " << r + 1 << ": copy " << static_cast<long>(copy.back()) << " wire "
                << static_cast<long>(wire.back()) << " stream " << static_cast<long>(stream.back())
                << " cells " << static_cast<long>(cells.back()) << " text "
                << static_cast<long>(text.back()) << " rows/s\n";
    }
    std::printf(
        "rows=%ld rounds=%ld copy_rows_per_s=%.0f wire_rows_per_s=%.0f "
        "stream_rows_per_s=%.0f cells_rows_per_s=%.0f text_rows_per_s=%.0f server=%s\n",
        rows, rounds, dp::bench::Median(copy), dp::bench::Median(wire), dp::bench::Median(stream),
        dp::bench::Median(cells), dp::bench::Median(text), server.c_str());
    return 0;
  });
}
