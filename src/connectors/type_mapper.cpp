#include "datapipelines/connectors/type_mapper.hpp"

namespace dp {

TypeMapping UnknownSourceType(const SourceType& source, std::string_view column) {
  const std::string& shown = source.display.empty() ? source.name : source.display;
  TypeMapping mapping{CanonicalType::kString, std::nullopt, std::nullopt, std::nullopt};
  mapping.warning = TypeWarning{"type_mapping.unknown_source_type",
                                "Source type '" + shown + "' on column '" + std::string(column) +
                                    "' has no canonical mapping; falling back to STRING.",
                                std::string(column), shown};
  return mapping;
}

TypeMapping ExactNumeric(std::optional<int> precision, std::optional<int> scale) {
  int s = scale.value_or(0) < 0 ? 0 : scale.value_or(0);
  if (!precision || *precision <= 0) {
    return TypeMapping{CanonicalType::kBigDecimal, std::nullopt, s, std::nullopt};
  }
  CanonicalType type = *precision <= 15 ? CanonicalType::kDecimal : CanonicalType::kBigDecimal;
  return TypeMapping{type, *precision, s, std::nullopt};
}

TypeMapping Approximate(int precision) {
  return TypeMapping{CanonicalType::kDecimal, precision, std::nullopt, std::nullopt};
}

TypeMapping Simple(CanonicalType type) {
  return TypeMapping{type, std::nullopt, std::nullopt, std::nullopt};
}

}  // namespace dp
