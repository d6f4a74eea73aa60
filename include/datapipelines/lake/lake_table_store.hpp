#pragma once
// The dp-lake registry store (metadata-db §4.15, migration 0009): one row per registered
// (datasource, namespace, table). Written by LakeTableService alone; rows are inserted and
// deleted, never edited.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/connectors/duckdb/lake_table.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class MetadataStore;

struct LakeTableRecord {
  std::string datasource;
  LakeTable table;
  std::string registered_by;
  int64_t registered_at_ms = 0;
  std::string last_error;  // "" = the view last built cleanly

  // The §6.2.29 response row: namespace, name, qualified_name, format, location,
  // partition_column, registered_at.
  Json ToJson() const;
};

class LakeTableStore {
 public:
  virtual ~LakeTableStore() = default;
  // Throws DuplicateKeyError when the triple is taken.
  virtual void Insert(const LakeTableRecord& record) = 0;
  // Oldest first.
  virtual std::vector<LakeTableRecord> List(const std::string& datasource) = 0;
  // False when no such row existed.
  virtual bool Delete(const std::string& datasource, const std::vector<std::string>& ns,
                      const std::string& name) = 0;
};

// The SQL adapter over the metadata store's own connection (SQLite or PostgreSQL).
std::unique_ptr<LakeTableStore> OpenLakeTableStore(MetadataStore& metadata);

}  // namespace dp
