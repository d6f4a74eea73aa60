#pragma once
// Writes parquet files with DuckDB, for trusted server-side producers only (the demo lake,
// tests, benches) — never for author SQL. A private in-memory engine whose file access is
// limited to the target directory runs COPY (<select>) TO <dir> (FORMAT parquet[,
// PARTITION_BY (<column>)]); hive-style <column>=<value>/ folders when partitioned.
#include <optional>
#include <string>
#include <vector>

namespace dp {

class ParquetWriter {
 public:
  // `select_sql` is trusted SQL producing the rows (it may read `inputs`, absolute paths of
  // parquet/csv files the engine may also read). Overwrites `target` (a file path ending in
  // .parquet, or a directory when partitioned). Throws DomainError(internal) on failure.
  static void Write(const std::string& select_sql, const std::string& target,
                    const std::optional<std::string>& partition_by,
                    const std::vector<std::string>& readable_directories = {});
};

}  // namespace dp
