#include "datapipelines/connectors/fallback_type_mapper.hpp"

namespace dp {

TypeMapping FallbackTypeMapper::Map(const SourceType& source, std::string_view column) const {
  return UnknownSourceType(source, column);
}

}  // namespace dp
