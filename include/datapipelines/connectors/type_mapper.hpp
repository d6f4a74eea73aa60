#pragma once
// Per-dialect source → canonical type mapping (type-system.md §5, §11.2).
#include <string_view>

#include "datapipelines/connectors/dialect.hpp"
#include "datapipelines/connectors/source_type.hpp"
#include "datapipelines/connectors/type_mapping.hpp"

namespace dp {

class TypeMapper {
 public:
  virtual ~TypeMapper() = default;
  // Never throws: an unrecognised type maps to STRING with one
  // type_mapping.unknown_source_type warning naming the column (§8.2).
  virtual TypeMapping Map(const SourceType& source, std::string_view column) const = 0;
  // True only for the §8.2 fallback mapper (the dispatch guard test uses it).
  virtual bool is_fallback() const { return false; }
};

// Shared helpers the dialect mappers use.
TypeMapping UnknownSourceType(const SourceType& source, std::string_view column);
// DECIMAL(p,s) when p ≤ 15, BIGDECIMAL(p,s) above, unbounded BIGDECIMAL when p ≤ 0/absent.
TypeMapping ExactNumeric(std::optional<int> precision, std::optional<int> scale);
TypeMapping Approximate(int precision);
TypeMapping Simple(CanonicalType type);

}  // namespace dp
