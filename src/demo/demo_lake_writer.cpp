#include "datapipelines/demo/demo_lake_writer.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "datapipelines/connectors/duckdb/parquet_writer.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

// One table as CSV: every value quoted (quotes doubled), NULL as an empty unquoted field.
int64_t StageCsv(const DemoDataset& dataset, const std::string& table, const fs::path& file) {
  std::ofstream out(file, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  int64_t rows = 0;
  std::string line;
  dataset.ForEachRow(table, [&](const DemoRow& row) {
    line.clear();
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i) line.push_back(',');
      if (!row[i]) continue;
      line.push_back('"');
      for (char c : *row[i]) {
        if (c == '"') line.push_back('"');
        line.push_back(c);
      }
      line.push_back('"');
    }
    line.push_back('\n');
    out << line;
    ++rows;
    return true;
  });
  out.close();
  if (!out) throw std::runtime_error("cannot write " + file.string());
  return rows;
}

// read_csv over a staged file with the table's exact column types (no sniffing).
std::string ReadCsv(const std::string& table, const fs::path& file) {
  std::string columns;
  for (const auto& column : DemoDataset::Table(table).columns) {
    if (!columns.empty()) columns += ", ";
    columns += "'" + column.name + "': '" + DemoColumnType(column, Dialect::kDuckdb) + "'";
  }
  return "read_csv('" + file.string() + "', header = false, quote = '\"', escape = '\"', " +
         "nullstr = '', columns = {" + columns + "})";
}

Json Stamp(const DemoDataset& dataset) {
  return Json{{"version", DemoDataset::kVersion},
              {"seed", std::to_string(dataset.seed())},
              {"trips", dataset.trip_count()}};
}

}  // namespace

Json DemoLakeReport::ToJson() const {
  return Json{{"skipped", skipped},       {"root", root},
              {"trips", trips},           {"zones", zones},
              {"partitions", partitions}, {"elapsed_ms", elapsed_ms}};
}

DemoLakeReport DemoLakeWriter::Write(const DemoDataset& dataset, const std::string& root,
                                     bool force) {
  auto started = std::chrono::steady_clock::now();
  fs::create_directories(root);
  fs::path base = fs::canonical(root);
  for (char c : base.string()) {
    // The folder ends up in a file:// location, whose grammar admits no quote or space.
    if (c == '\'' || c == '"' || c == '\\' || c == ';' || c == ' ') {
      throw std::runtime_error("the lake folder's path may not contain quotes, ';' or spaces");
    }
  }
  DemoLakeReport report;
  report.root = base.string();
  fs::path manifest_path = base / kManifest;
  Json stamp = Stamp(dataset);
  if (!force && fs::exists(manifest_path)) {
    std::ifstream in(manifest_path);
    Json existing = Json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (existing.is_object() && existing.value("demo_dataset", Json()) == stamp &&
        fs::exists(base / "trips") && fs::exists(base / "zones.parquet")) {
      report.skipped = true;
      report.trips = dataset.trip_count();
      report.zones = DemoDataset::kZoneCount;
      for (const auto& entry : fs::directory_iterator(base / "trips")) {
        report.partitions += entry.is_directory() ? 1 : 0;
      }
      return report;
    }
  }
  // The manifest goes first (a crashed write leaves no manifest claiming this dataset), the
  // old tables next (COPY … OVERWRITE_OR_IGNORE would keep stale month files).
  fs::remove(manifest_path);
  fs::remove_all(base / "trips");
  fs::remove(base / "zones.parquet");
  fs::path staging = base / (".staging-" + RandomBase32(8));
  fs::create_directories(staging);
  try {
    report.trips = StageCsv(dataset, "trips", staging / "trips.csv");
    report.zones = StageCsv(dataset, "zones", staging / "zones.csv");
    ParquetWriter::Write("SELECT *, strftime(pickup_at, '%Y-%m') AS month FROM " +
                             ReadCsv("trips", staging / "trips.csv") + " ORDER BY id",
                         (base / "trips").string(), std::string("month"), {staging.string()});
    ParquetWriter::Write(
        "SELECT * FROM " + ReadCsv("zones", staging / "zones.csv") + " ORDER BY id",
        (base / "zones.parquet").string(), std::nullopt, {staging.string()});
  } catch (...) {
    std::error_code ec;
    fs::remove_all(staging, ec);
    throw;
  }
  fs::remove_all(staging);
  for (const auto& entry : fs::directory_iterator(base / "trips")) {
    report.partitions += entry.is_directory() ? 1 : 0;
  }
  Json manifest{
      {"namespace", kNamespace},
      {"tables",
       Json::array({Json{{"name", "trips"},
                         {"path", "trips"},
                         {"format", "parquet"},
                         {"partition_column", "month"}},
                    Json{{"name", "zones"}, {"path", "zones.parquet"}, {"format", "parquet"}}})},
      {"demo_dataset", stamp}};
  std::ofstream(manifest_path) << manifest.dump(2) << "\n";
  report.elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - started)
                          .count();
  return report;
}

}  // namespace dp
