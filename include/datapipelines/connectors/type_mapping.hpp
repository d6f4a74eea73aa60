#pragma once
// The result of mapping one source column type to the canonical type system.
#include <optional>
#include <string>

#include "datapipelines/connectors/canonical_type.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// A mapper warning (type-system.md §8.2), e.g. type_mapping.unknown_source_type.
struct TypeWarning {
  std::string code;
  std::string message;
  std::string column;
  std::string source_type;

  Json ToJson() const;
};

struct TypeMapping {
  CanonicalType type = CanonicalType::kString;
  // DECIMAL: always; BIGDECIMAL: omitted when unbounded (§4).
  std::optional<int> precision;
  // Exact numerics only; omitted for approximate DECIMAL (§3.4).
  std::optional<int> scale;
  std::optional<TypeWarning> warning;
};

}  // namespace dp
