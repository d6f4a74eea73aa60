#pragma once
// `datapipelines demo-data`: loads the deterministic demo dataset into a SQLite file or a
// PostgreSQL/MariaDB database through our connectors, or (--lake) as a parquet demo lake.
// Prints what it loaded, never a credential.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "datapipelines/connectors/connector_config.hpp"

namespace dp::cli {

class DemoDataCommand {
 public:
  explicit DemoDataCommand(CLI::App& app);
  bool parsed() const { return command_->parsed(); }
  // Runs the load; returns the process exit code.
  int Run();

 private:
  ConnectorConfig TargetConfig() const;
  int RunLake();

  CLI::App* command_ = nullptr;
  std::string sqlite_path_;
  std::string lake_dir_;
  std::string url_;
  std::string url_env_;
  std::string schema_;
  std::string table_prefix_;
  int64_t trips_ = -1;
  uint64_t seed_ = 0;
  int batch_rows_ = 500;
  bool force_ = false;
  bool no_copy_ = false;
  bool json_ = false;
};

}  // namespace dp::cli
