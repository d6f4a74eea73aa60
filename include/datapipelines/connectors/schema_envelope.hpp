#pragma once
// The schema envelope that travels with every result set (type-system.md §7).
#include <vector>

#include "datapipelines/connectors/column_schema.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class SchemaEnvelope {
 public:
  static constexpr int kSchemaVersion = 1;
  // {"schema_version": 1, "schema": [...], "warnings"?: [...]}; warnings only when a
  // column's mapping carried one (§8.2).
  static Json Build(const std::vector<ColumnSchema>& columns);
  // The mapper warnings of the columns, in column order.
  static Json Warnings(const std::vector<ColumnSchema>& columns);
};

}  // namespace dp
