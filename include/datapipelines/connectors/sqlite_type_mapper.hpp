#pragma once
// SQLite mapping (type-system.md §5.7) by affinity of the declared type string.
#include "datapipelines/connectors/type_mapper.hpp"

namespace dp {

class SqliteTypeMapper : public TypeMapper {
 public:
  TypeMapping Map(const SourceType& source, std::string_view column) const override;
};

}  // namespace dp
