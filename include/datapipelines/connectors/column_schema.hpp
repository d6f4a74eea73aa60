#pragma once
// One result or catalog column described in canonical terms (type-system.md §7.1,
// datasources.md §7A columns operation).
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/connectors/type_mapping.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

struct ColumnSchema {
  std::string name;
  TypeMapping mapping;
  std::string source_type;
  // Absent = the driver does not know (never read as false).
  std::optional<bool> nullable;
  std::optional<std::string> remarks;

  // The §7.1 descriptor: {name, type, precision?, scale?, nullable?}.
  Json ToDescriptor() const;
  // The §7A columns entry: descriptor + source_type, warnings (messages), remarks?.
  Json ToCatalogJson() const;
};

}  // namespace dp
