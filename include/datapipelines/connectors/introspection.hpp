#pragma once
// Catalog read results (datasources.md §7A, spec §6.2.33).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/connectors/column_schema.hpp"

namespace dp {

inline constexpr std::size_t kIntrospectionCap = 2000;

struct IntrospectionOptions {
  // datasources.md §3.3 escape hatch: lowercase exact names exempt from the system floors.
  std::vector<std::string> include_schemas;
  std::size_t cap = kIntrospectionCap;
};

struct NamespaceListing {
  std::vector<std::string> names;
  bool truncated = false;
};

struct TableInfo {
  std::string schema;  // empty on schemaless dialects (SQLite)
  std::string name;
  std::string type;  // raw table type: TABLE, VIEW, BASE TABLE, ...
  std::optional<std::string> remarks;
};

struct TableListing {
  std::vector<TableInfo> tables;
  bool truncated = false;
};

struct IndexInfo {
  std::string name;
  std::vector<std::string> columns;
  bool unique = false;
  bool primary = false;
  std::string kind;  // btree, hash, ...
};

struct ColumnStats {
  std::string name;
  std::optional<double> n_distinct;
  bool distinct_is_ratio = false;
  std::optional<double> null_fraction;
  std::optional<std::string> min;
  std::optional<std::string> max;
};

struct TableStats {
  std::optional<int64_t> row_estimate;
  std::optional<std::string> stats_as_of;
  std::string stats_source = "none";
  std::vector<IndexInfo> indexes;
  std::vector<ColumnStats> columns;

  // The spec §6.2.33 payload (stat fields omitted when null).
  Json ToJson() const;
};

// Keeps the first `cap` entries of a listing's `items` and records whether any were dropped.
template <typename Items>
void CapAt(Items& items, std::size_t cap, bool& truncated) {
  if (items.size() > cap) {
    items.resize(cap);
    truncated = true;
  }
}

}  // namespace dp
