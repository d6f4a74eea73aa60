#pragma once
// §8.2 fallback: every column STRING + type_mapping.unknown_source_type.
#include "datapipelines/connectors/type_mapper.hpp"

namespace dp {

class FallbackTypeMapper : public TypeMapper {
 public:
  TypeMapping Map(const SourceType& source, std::string_view column) const override;
  bool is_fallback() const override { return true; }
};

}  // namespace dp
