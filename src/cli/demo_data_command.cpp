#include "datapipelines/cli/demo_data_command.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/demo/demo_dataset.hpp"
#include "datapipelines/demo/demo_dataset_loader.hpp"
#include "datapipelines/demo/demo_lake_writer.hpp"

namespace dp::cli {
namespace {

constexpr int64_t kDefaultSqliteTrips = 100'000;
// The server-engine copy is the one the benchmarks read: at least a million trips.
constexpr int64_t kDefaultServerTrips = 1'000'000;

std::string Seconds(int64_t ms) {
  char out[32];
  std::snprintf(out, sizeof out, "%.1f s", static_cast<double>(ms) / 1000.0);
  return out;
}

}  // namespace

DemoDataCommand::DemoDataCommand(CLI::App& app) {
  seed_ = DemoDataset::kDefaultSeed;
  command_ = app.add_subcommand(
      "demo-data",
      "Load the deterministic city-mobility demo dataset (zones, calendar, weather, "
      "trips) into SQLite, PostgreSQL or MariaDB, or write it as a parquet demo lake");
  auto* sqlite = command_->add_option("--sqlite", sqlite_path_, "SQLite database file to write");
  auto* lake = command_->add_option(
      "--lake", lake_dir_,
      "Folder to write the demo lake into: trips as hive-partitioned parquet by month "
      "(trips/month=YYYY-MM/), zones.parquet, and manifest.json for lake_tables_import");
  auto* url = command_->add_option(
      "--url", url_, "postgresql://… or mysql://… (prefer --url-env: argv is visible to others)");
  auto* url_env = command_->add_option("--url-env", url_env_,
                                       "Name of an environment variable holding the URL");
  sqlite->excludes(url, url_env);
  url->excludes(url_env);
  lake->excludes(sqlite, url, url_env);
  command_
      ->add_option("--trips", trips_,
                   "Trip rows (default 100000 for SQLite, 1000000 for PostgreSQL/MariaDB)")
      ->check(CLI::Range(int64_t{0}, int64_t{1'000'000'000}));
  command_->add_option("--seed", seed_, "Generator seed (same seed and scale → same rows)");
  command_->add_option("--schema", schema_, "Target schema (PostgreSQL; created if absent)");
  command_->add_option("--table-prefix", table_prefix_, "Prefix for every table name");
  command_->add_option("--batch-rows", batch_rows_, "Rows per INSERT statement")
      ->check(CLI::Range(1, 10000));
  command_->add_flag("--force", force_, "Reload even when this scale is already recorded");
  command_->add_flag("--no-copy", no_copy_,
                     "Use INSERT batches even where COPY FROM STDIN is available (PostgreSQL)");
  command_->add_flag("--json", json_, "Print the load report as JSON");
}

ConnectorConfig DemoDataCommand::TargetConfig() const {
  if (!sqlite_path_.empty()) {
    ConnectorConfig config;
    config.dialect = Dialect::kSqlite;
    config.sqlite_path = sqlite_path_;
    return config;
  }
  if (!url_.empty()) return ConnectorConfig::FromUrl(url_);
  if (url_env_.empty())
    throw std::runtime_error("one of --sqlite, --url, --url-env or --lake is required");
  const char* value = std::getenv(url_env_.c_str());
  if (!value || !*value) {
    throw std::runtime_error("environment variable " + url_env_ + " is not set");
  }
  return ConnectorConfig::FromUrl(value);
}

int DemoDataCommand::RunLake() {
  DemoDataset dataset(trips_ >= 0 ? trips_ : kDefaultSqliteTrips, seed_);
  DemoLakeReport report = DemoLakeWriter::Write(dataset, lake_dir_, force_);
  if (json_) {
    std::cout << report.ToJson().dump(2) << "\n";
  } else if (report.skipped) {
    std::cout << "demo lake v" << DemoDataset::kVersion << " (seed " << dataset.seed() << ", "
              << report.trips << " trips) already written in " << report.root << "; skipped\n";
  } else {
    std::cout << "demo lake v" << DemoDataset::kVersion << " (seed " << dataset.seed()
              << ") written into " << report.root << ": trips=" << report.trips << " ("
              << report.partitions << " month partitions) zones=" << report.zones << " in "
              << Seconds(report.elapsed_ms) << "; manifest file://" << report.root << "/"
              << DemoLakeWriter::kManifest << "\n";
  }
  return 0;
}

int DemoDataCommand::Run() {
  try {
    if (!lake_dir_.empty()) return RunLake();
    ConnectorConfig config = TargetConfig();
    int64_t trips = trips_ >= 0                          ? trips_
                    : config.dialect == Dialect::kSqlite ? kDefaultSqliteTrips
                                                         : kDefaultServerTrips;
    std::unique_ptr<Connector> connector = MakeConnector(config);
    DemoLoadOptions options;
    options.schema = schema_;
    options.table_prefix = table_prefix_;
    options.force = force_;
    options.batch_rows = batch_rows_;
    options.bulk_copy = !no_copy_;
    options.progress = [](const std::string& table, int64_t rows) {
      std::cerr << "  " << table << ": " << rows << " rows\n";
    };
    DemoDataset dataset(trips, seed_);
    DemoLoadReport report = DemoDatasetLoader(*connector, options).Load(dataset);
    if (json_) {
      Json out = report.ToJson();
      out["target"] = config.Describe();
      if (!schema_.empty()) out["schema"] = schema_;
      std::cout << out.dump(2) << "\n";
      return 0;
    }
    std::string where = config.Describe() + (schema_.empty() ? "" : " schema " + schema_);
    if (report.skipped) {
      std::cout << "demo dataset v" << report.version << " (seed " << report.seed << ", "
                << report.trips << " trips) already loaded in " << where << "; skipped\n";
      return 0;
    }
    std::cout << "demo dataset v" << report.version << " (seed " << report.seed << ") loaded into "
              << where << ":";
    for (const auto& [table, rows] : report.rows) std::cout << " " << table << "=" << rows;
    std::cout << " in " << Seconds(report.elapsed_ms) << "\n";
    return 0;
  } catch (const DomainError& e) {
    std::cerr << "demo-data: " << e.code().code << ": " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "demo-data: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace dp::cli
