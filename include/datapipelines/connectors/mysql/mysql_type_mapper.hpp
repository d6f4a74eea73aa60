#pragma once
// MySQL/MariaDB mapping (type-system.md §5.4), keyed by the type name (information_schema
// DATA_TYPE or the result field type translated to it), width, unsigned and binary flags.
#include "datapipelines/connectors/type_mapper.hpp"

namespace dp {

class MysqlTypeMapper : public TypeMapper {
 public:
  TypeMapping Map(const SourceType& source, std::string_view column) const override;
};

}  // namespace dp
