#pragma once
// `:name` placeholder parsing. Placeholders inside string literals, quoted identifiers,
// comments, PG dollar quotes and after `::` casts are text, never parameters.
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/connectors/dialect.hpp"

namespace dp {

struct NamedParameters {
  // Text pieces around the placeholders: pieces.size() == names.size() + 1.
  std::vector<std::string> pieces;
  // Placeholder names in order of appearance (repeats kept).
  std::vector<std::string> names;

  static NamedParameters Parse(std::string_view sql, Dialect dialect);
  // Distinct names in first-appearance order.
  std::vector<std::string> DistinctNames() const;
};

}  // namespace dp
