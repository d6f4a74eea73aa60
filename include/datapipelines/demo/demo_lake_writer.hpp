#pragma once
// The demo lake (issue 16 "Shows"): the demo dataset's trips as hive-partitioned parquet (one
// folder per pickup month, `month=YYYY-MM/`) and its zones as one unpartitioned file, plus a
// lake manifest (`manifest.json`, the lake_tables_import format) naming both, so a LAKE
// datasource rooted at the folder imports them with one manifest_url. The rows are the
// generator's own (DemoDataset), staged as CSV and written by DuckDB's COPY through
// ParquetWriter — trusted server code, never author SQL.
#include <cstdint>
#include <string>

#include "datapipelines/demo/demo_dataset.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

struct DemoLakeReport {
  bool skipped = false;  // the same version, seed and scale are already written there
  std::string root;      // the absolute lake folder
  int64_t trips = 0;
  int64_t zones = 0;
  int64_t partitions = 0;  // month folders under trips/
  int64_t elapsed_ms = 0;

  Json ToJson() const;
};

class DemoLakeWriter {
 public:
  static constexpr const char* kManifest = "manifest.json";
  static constexpr const char* kNamespace = "demo";

  // Writes <root>/trips/month=…/*.parquet, <root>/zones.parquet and <root>/manifest.json;
  // skipped when the manifest records this dataset already (unless `force`). `root` is made
  // absolute and created. Throws DomainError / std::runtime_error on failure.
  static DemoLakeReport Write(const DemoDataset& dataset, const std::string& root, bool force);
};

}  // namespace dp
