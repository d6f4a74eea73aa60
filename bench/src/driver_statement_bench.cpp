// dp_bench_driver_statement: the bare-driver baseline of bench/datasource-tools — runs one
// statement repeatedly on one open PostgreSQL session through our connector, reading at most
// --limit rows (-1: all, for statements that carry their own LIMIT) into wire JSON objects and
// serializing them (what the tool answers carry), and prints the median and mean µs per statement.
//
//   dp_bench_driver_statement --calls=N [--limit=L] "<sql>"
//   URL from DP_BENCH_PG_URL, else DP_TEST_PG_URL (never printed).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bench_timing.hpp"
#include "datapipelines/connectors/connection.hpp"
#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/connectors/connector_config.hpp"
#include "datapipelines/domain/domain_error.hpp"

namespace {

// One statement as the tools run it: streamed, capped, rows → wire objects → one JSON text.
double CallMicros(dp::Connection& conn, const std::string& sql, long limit, size_t& sink) {
  dp::QueryOptions options;
  options.max_rows = limit;  // -1 = no cap
  dp::Json rows = dp::Json::array();
  const auto start = std::chrono::steady_clock::now();
  conn.Query(sql, {}, options, [&](const dp::RowView& row) {
    rows.push_back(row.ToWireObject());
    return true;
  });
  sink += rows.dump().size();
  return dp::bench::SecondsSince(start) * 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  const long calls = dp::bench::FlagValue(argc, argv, "--calls", 2000);
  const long limit = dp::bench::FlagValue(argc, argv, "--limit", 50);
  const std::string sql = argc > 1 ? argv[argc - 1] : "";
  if (sql.empty() || sql.rfind("--", 0) == 0) {
    std::cerr << "usage: dp_bench_driver_statement --calls=N [--limit=L] \"<sql>\"\n";
    return 2;
  }
  return dp::bench::ReportFailures([&] {
    std::unique_ptr<dp::Connector> connector =
        dp::MakeConnector(dp::ConnectorConfig::FromUrl(dp::bench::BenchPostgresUrl()));
    std::unique_ptr<dp::Connection> conn = connector->Open();
    size_t sink = 0;
    for (long i = 0; i < calls / 10 + 1; ++i) CallMicros(*conn, sql, limit, sink);  // warm-up
    std::vector<double> samples;
    double total = 0;
    for (long i = 0; i < calls; ++i) {
      samples.push_back(CallMicros(*conn, sql, limit, sink));
      total += samples.back();
    }
    std::printf("calls=%ld p50_us=%.1f mean_us=%.1f bytes=%zu\n", calls, dp::bench::Median(samples),
                total / static_cast<double>(calls),
                sink / static_cast<size_t>(calls + calls / 10 + 1));
    return 0;
  });
}
