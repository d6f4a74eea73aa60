// dp_bench_tempdb_engines: the same staged workload on both tempdb engines, side by side
// (settings.tempdb.engine SQLITE vs DUCKDB): stage 1M trip rows and a 100k-row dimension through
// Tempdb::TableWriter (the executor's staging path, rows as a connector hands them over), then
// a join of the two and a group-by over the join — the statement a tempdb DQL node runs.
//
//   dp_bench_tempdb_engines [--facts=N] [--dims=M] [--rounds=R]
// Prints one key=value line per engine (bench/tempdb-engines formats them).
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench_timing.hpp"
#include "datapipelines/connectors/type_mapper.hpp"
#include "datapipelines/executor/tempdb.hpp"

namespace {

dp::ColumnSchema Column(std::string name, dp::TypeMapping mapping) {
  dp::ColumnSchema column;
  column.name = std::move(name);
  column.mapping = mapping;
  return column;
}

void Stage(dp::Tempdb& db, const std::string& table, const std::vector<dp::ColumnSchema>& columns,
           long rows, const std::function<void(long, std::vector<std::string>&)>& fill) {
  auto writer = db.CreateTable(table, columns);
  std::vector<std::string> text(columns.size());
  std::vector<std::optional<std::string_view>> cells(columns.size());
  for (long r = 0; r < rows; ++r) {
    fill(r, text);
    for (std::size_t i = 0; i < text.size(); ++i) cells[i] = text[i];
    writer.Append(dp::RowView(columns, cells));
  }
  writer.Finish();
}

struct Figures {
  double stage_s = 0, join_s = 0, group_s = 0;
  long join_rows = 0, group_rows = 0;
};

Figures RunOnce(dp::TempdbEngine engine, long facts, long dims) {
  dp::TempdbOptions options;
  options.engine = engine;
  options.max_memory_bytes = 4LL << 30;
  dp::Tempdb db(options);
  const dp::TypeMapping kInt = dp::Simple(dp::CanonicalType::kInteger);
  const dp::TypeMapping kMoney{dp::CanonicalType::kDecimal, 10, 2, std::nullopt};
  const dp::TypeMapping kText = dp::Simple(dp::CanonicalType::kString);
  const dp::TypeMapping kTs = dp::Simple(dp::CanonicalType::kTimestamp);
  Figures out;
  auto start = std::chrono::steady_clock::now();
  Stage(db, "stg_trips",
        {Column("id", kInt), Column("customer_id", kInt), Column("fare", kMoney),
         Column("pickup_at", kTs)},
        facts, [&](long r, std::vector<std::string>& t) {
          t[0] = std::to_string(r + 1);
          t[1] = std::to_string((r * 7919) % dims + 1);
          t[2] = std::to_string(2 + r % 90) + "." + std::to_string(10 + r % 90);
          char ts[32];
          std::snprintf(ts, sizeof ts, "2024-%02ld-%02ld 10:%02ld:00", r % 12 + 1, r % 28 + 1,
                        r % 60);
          t[3] = ts;
        });
  Stage(db, "stg_customers", {Column("id", kInt), Column("segment", kText), Column("city", kText)},
        dims, [&](long r, std::vector<std::string>& t) {
          t[0] = std::to_string(r + 1);
          t[1] = "segment-" + std::to_string(r % 12);
          t[2] = "city-" + std::to_string(r % 250);
        });
  out.stage_s = dp::bench::SecondsSince(start);
  auto count = [&](const std::string& sql, long& rows) {
    auto begin = std::chrono::steady_clock::now();
    rows = 0;
    db.Query(sql, {}, dp::QueryOptions{}, [&](const dp::RowView&) { return ++rows, true; });
    return dp::bench::SecondsSince(begin);
  };
  out.join_s = count(
      "SELECT t.id, t.fare, c.segment, c.city FROM stg_trips t JOIN stg_customers c "
      "ON c.id = t.customer_id WHERE t.fare > 50",
      out.join_rows);
  out.group_s = count(
      "SELECT c.segment, c.city, count(*) AS trips, sum(t.fare) AS fares FROM stg_trips t "
      "JOIN stg_customers c ON c.id = t.customer_id GROUP BY c.segment, c.city",
      out.group_rows);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const long facts = dp::bench::FlagValue(argc, argv, "--facts", 1000000);
  const long dims = dp::bench::FlagValue(argc, argv, "--dims", 100000);
  const long rounds = dp::bench::FlagValue(argc, argv, "--rounds", 3);
  return dp::bench::ReportFailures([&] {
    for (dp::TempdbEngine engine : {dp::TempdbEngine::kSqlite, dp::TempdbEngine::kDuckdb}) {
      std::vector<double> stage, join, group;
      Figures last;
      for (long r = 0; r < rounds; ++r) {
        last = RunOnce(engine, facts, dims);
        stage.push_back(last.stage_s);
        join.push_back(last.join_s);
        group.push_back(last.group_s);
      }
      std::printf(
          "engine=%s facts=%ld dims=%ld rounds=%ld stage_s=%.3f join_s=%.3f group_s=%.3f "
          "join_rows=%ld group_rows=%ld\n",
          engine == dp::TempdbEngine::kSqlite ? "sqlite" : "duckdb", facts, dims, rounds,
          dp::bench::Median(stage), dp::bench::Median(join), dp::bench::Median(group),
          last.join_rows, last.group_rows);
    }
    return 0;
  });
}
