#pragma once
// Writes a DemoDataset through our own connectors: COPY FROM STDIN where the engine has it,
// else multi-row INSERT batches inside transactions; secondary indexes and statistics afterwards,
// and a demo_dataset_info row written last so a reload of the same version/seed/scale is skipped
// and a crashed load is not.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/demo/demo_dataset.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

struct DemoLoadOptions {
  std::string schema;        // PostgreSQL: created if absent; elsewhere an existing qualifier
  std::string table_prefix;  // for shared databases (tests)
  int batch_rows = 500;
  int batches_per_commit = 100;
  bool force = false;  // reload even when the same scale is recorded
  // Stream each table through Connection::CopyIn where the engine has it (PostgreSQL COPY);
  // false forces INSERT batches everywhere.
  bool bulk_copy = true;
  // Called after each committed chunk: (logical table, rows written so far).
  std::function<void(const std::string&, int64_t)> progress;
};

struct DemoLoadReport {
  bool skipped = false;  // the same version, seed and scale were already loaded
  int version = 0;
  uint64_t seed = 0;
  int64_t trips = 0;
  std::vector<std::pair<std::string, int64_t>> rows;  // table → rows written
  int64_t elapsed_ms = 0;

  Json ToJson() const;
};

// What demo_dataset_info records about the installed copy.
struct DemoInstalledInfo {
  int version = 0;
  uint64_t seed = 0;
  int64_t trips = 0;
};

class DemoDatasetLoader {
 public:
  explicit DemoDatasetLoader(Connector& connector, DemoLoadOptions options = {});

  DemoLoadReport Load(const DemoDataset& dataset);
  // nullopt when no complete load is recorded at this target.
  std::optional<DemoInstalledInfo> Installed(Connection& session) const;
  const DemoTarget& target() const { return target_; }

 private:
  void DropAll(Connection& session) const;
  int64_t LoadTable(Connection& session, const DemoDataset& dataset, const DemoTableDef& table);
  // nullopt when the session has no bulk path.
  std::optional<int64_t> CopyTable(Connection& session, const DemoDataset& dataset,
                                   const DemoTableDef& table) const;
  int64_t InsertTable(Connection& session, const DemoDataset& dataset, const DemoTableDef& table);
  void Flush(Connection& session, const std::string& head, std::string& values, int& pending) const;
  void Begin(Connection& session) const;
  void RecordInfo(Connection& session, const DemoDataset& dataset) const;
  void Analyze(Connection& session) const;

  Connector& connector_;
  DemoLoadOptions options_;
  DemoTarget target_;
};

}  // namespace dp
