#pragma once
// PostgreSQL mapping (type-system.md §5.1), keyed by pg_type.typname + typmod-derived
// precision/scale; domains are resolved to their base type by the caller.
#include "datapipelines/connectors/type_mapper.hpp"

namespace dp {

class PostgresTypeMapper : public TypeMapper {
 public:
  TypeMapping Map(const SourceType& source, std::string_view column) const override;
};

}  // namespace dp
