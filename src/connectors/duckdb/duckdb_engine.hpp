#pragma once
// One DuckDB database per DUCKDB/LAKE connector, opened and hardened once; every pooled
// session is a duckdb_connect on it. DuckDB runs inside this process, so author SQL must get
// no filesystem, network or extension primitive (datasources.md §5.6): extension autoload,
// autoinstall, unsigned and community extensions are off at open; external access is off
// except the datasource's own root (allowed_directories) and the configuration is locked
// before any session exists, so no SET from author SQL can re-open it.
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "datapipelines/connectors/connector_config.hpp"
#include "duckdb_c_api.hpp"

namespace dp {

class DuckdbEngine {
 public:
  // Opens, hardens and (LAKE) builds one view per registered table. A failing view is
  // recorded in view_errors() and skipped; a failing open is datasource_unreachable.
  static std::shared_ptr<DuckdbEngine> Open(const ConnectorConfig& config);
  ~DuckdbEngine();
  DuckdbEngine(const DuckdbEngine&) = delete;
  DuckdbEngine& operator=(const DuckdbEngine&) = delete;

  // A new session on the database; throws datasource_unreachable.
  duckdb_connection Connect(const ConnectorConfig& config);
  // Qualified table name ("ns.table") → why its view could not be built.
  const std::map<std::string, std::string>& view_errors() const { return view_errors_; }

  // The CREATE VIEW source of a LAKE table, or why it cannot be served by this build.
  static std::string ScanSql(const LakeTable& table);
  // nullopt when this build can serve the table's location and format; else the reason
  // (s3:// needs httpfs and iceberg the iceberg extension; neither loads without an
  // operator-provided extension directory).
  static std::optional<std::string> UnservableReason(const LakeTable& table,
                                                     const std::string& extension_directory);

 private:
  DuckdbEngine() = default;
  void Harden(const ConnectorConfig& config);
  void BuildViews(const ConnectorConfig& config);
  // Runs trusted setup SQL on the setup session; returns the engine error or "".
  std::string Run(const std::string& sql);

  duckdb_database db_ = nullptr;
  duckdb_connection setup_ = nullptr;
  std::map<std::string, std::string> view_errors_;
};

}  // namespace dp
