#pragma once
// DuckDB mapping (type-system.md §5.6), also LAKE's (§5.8: the same engine, one table). Reads
// the type name as DuckDB's catalog prints it ("DECIMAL(18,2)", "TIMESTAMP WITH TIME ZONE",
// "INTEGER[]", "STRUCT(a INTEGER)"); nested types fall back to STRING with the §8.2 warning.
#include "datapipelines/connectors/type_mapper.hpp"

namespace dp {

class DuckdbTypeMapper : public TypeMapper {
 public:
  TypeMapping Map(const SourceType& source, std::string_view column) const override;
};

}  // namespace dp
