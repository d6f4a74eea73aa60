// dp_bench_lake_scan: a 1M-row hive-partitioned parquet table (24 month folders, written once
// by ParquetWriter into a temp folder) read two ways, interleaved in the same run:
//   - "connector": a LAKE datasource over the folder, `SELECT * FROM bench.trips` streamed
//     through our DuckdbConnection (typed decode, RowView, each cell to its canonical wire
//     value) — what sql_probe / a DQL node does;
//   - "c_api": the same SELECT through DuckDB's C API directly (duckdb_query + duckdb_fetch_chunk,
//     no decode): the engine's own speed, the CLI-equivalent read;
// and the partition-pruned aggregate (`WHERE month = '2024-03'`) against the same aggregate over
// every month, through the connector.
//
//   dp_bench_lake_scan [--rows=N] [--rounds=R]
// Prints one line of key=value figures (bench/lake formats them).
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bench_timing.hpp"
#include "connectors/duckdb/duckdb_c_api.hpp"
#include "datapipelines/connectors/connection.hpp"
#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/connectors/duckdb/parquet_writer.hpp"
#include "datapipelines/connectors/pool/connection_pool.hpp"

namespace {

namespace fs = std::filesystem;

constexpr const char* kScan = "SELECT * FROM bench.trips";
constexpr const char* kAggregate =
    "SELECT pickup_zone_id, count(*) AS n, sum(fare) AS fares FROM bench.trips";

double ConnectorScan(dp::Connection& conn, const std::string& sql, long& rows) {
  auto start = std::chrono::steady_clock::now();
  rows = 0;
  int64_t sink = 0;
  conn.Query(sql, {}, dp::QueryOptions{}, [&](const dp::RowView& row) {
    for (std::size_t i = 0; i < row.size(); ++i) sink += row.Wire(i).is_null() ? 0 : 1;
    ++rows;
    return true;
  });
  if (sink < 0) std::cerr << sink;
  return dp::bench::SecondsSince(start);
}

double CApiScan(const std::string& root, const std::string& sql, long& rows) {
  duckdb_database db = nullptr;
  duckdb_connection con = nullptr;
  duckdb_open_ext(":memory:", &db, nullptr, nullptr);
  duckdb_connect(db, &con);
  duckdb_result setup;
  std::string view =
      "CREATE SCHEMA bench; CREATE VIEW bench.trips AS SELECT * FROM read_parquet('" + root +
      "/trips/**/*.parquet', hive_partitioning = true)";
  duckdb_query(con, view.c_str(), &setup);
  duckdb_destroy_result(&setup);
  auto start = std::chrono::steady_clock::now();
  duckdb_result result;
  rows = 0;
  if (duckdb_query(con, sql.c_str(), &result) == DuckDBSuccess) {
    while (duckdb_data_chunk chunk = duckdb_fetch_chunk(result)) {
      idx_t size = duckdb_data_chunk_get_size(chunk);
      duckdb_destroy_data_chunk(&chunk);
      if (size == 0) break;
      rows += static_cast<long>(size);
    }
  }
  duckdb_destroy_result(&result);
  double seconds = dp::bench::SecondsSince(start);
  duckdb_disconnect(&con);
  duckdb_close(&db);
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  const long rows = dp::bench::FlagValue(argc, argv, "--rows", 1000000);
  const long rounds = dp::bench::FlagValue(argc, argv, "--rounds", 3);
  return dp::bench::ReportFailures([&] {
    fs::path root = fs::temp_directory_path() / ("dp_bench_lake_" + std::to_string(getpid()));
    fs::create_directories(root);
    // Trips-like rows: 24 months of pickups, 260 zones, a fare and a note.
    dp::ParquetWriter::Write(
        "SELECT range + 1 AS id, (range % 260)::INTEGER AS pickup_zone_id, "
        "TIMESTAMP '2024-01-01' + to_seconds((range * 62.0)::BIGINT) AS pickup_at, "
        "round((range % 9000) / 100.0 + 2.5, 2)::DECIMAL(10,2) AS fare, "
        "'card payment ' || (range % 977) AS note, "
        "strftime(TIMESTAMP '2024-01-01' + to_seconds((range * 62.0)::BIGINT), '%Y-%m') AS month "
        "FROM range(" +
            std::to_string(rows) + ")",
        (root / "trips").string(), std::string("month"));
    dp::ConnectorConfig config = dp::ConnectorConfig::FromUrl("lake:file://" + root.string());
    config.lake_tables = {dp::LakeTable{
        {"bench"}, "trips", "parquet", "file://" + root.string() + "/trips", "month"}};
    auto connector = dp::MakeConnector(config);
    auto lease = std::make_unique<dp::ConnectionPool::Lease>(connector->Acquire());
    dp::Connection* conn = lease->get();
    std::vector<double> ours, direct, pruned, full;
    long seen = 0, direct_rows = 0, pruned_rows = 0, full_rows = 0;
    for (long r = 0; r < rounds; ++r) {
      ours.push_back(ConnectorScan(*conn, kScan, seen));
      direct.push_back(CApiScan(root.string(), kScan, direct_rows));
      pruned.push_back(ConnectorScan(
          *conn, std::string(kAggregate) + " WHERE month = '2024-03' GROUP BY 1", pruned_rows));
      full.push_back(ConnectorScan(*conn, std::string(kAggregate) + " GROUP BY 1", full_rows));
    }
    std::string plan;
    conn->Query("EXPLAIN " + std::string(kAggregate) + " WHERE month = '2024-03' GROUP BY 1", {},
                dp::QueryOptions{}, [&](const dp::RowView& row) {
                  for (std::size_t i = 0; i < row.size(); ++i) {
                    if (row.text(i)) plan += std::string(*row.text(i));
                  }
                  return true;
                });
    std::string files = "?";
    if (auto at = plan.find("Scanning Files:"); at != std::string::npos) {
      auto begin = plan.find_first_of("0123456789", at);
      files = plan.substr(begin, plan.find_first_not_of("0123456789/", begin) - begin);
    }
    lease.reset();
    connector.reset();
    fs::remove_all(root);
    if (seen != rows || direct_rows != rows) {
      std::cerr << "bench: row counts differ: connector " << seen << ", c_api " << direct_rows
                << ", expected " << rows << "\n";
      return 1;
    }
    double c = dp::bench::Median(ours), d = dp::bench::Median(direct);
    std::printf(
        "rows=%ld rounds=%ld connector_s=%.3f c_api_s=%.3f connector_rows_per_s=%.0f "
        "c_api_rows_per_s=%.0f pruned_s=%.4f full_s=%.4f pruned_groups=%ld full_groups=%ld "
        "scanned_files=%s duckdb=%s\n",
        rows, rounds, c, d, rows / c, rows / d, dp::bench::Median(pruned), dp::bench::Median(full),
        pruned_rows, full_rows, files.c_str(), duckdb_library_version());
    return 0;
  });
}
