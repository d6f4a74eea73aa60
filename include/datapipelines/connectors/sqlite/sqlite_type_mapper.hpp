#pragma once
// SQLite mapping (type-system.md §5.7) by affinity of the declared type string.
#include <string>
#include <string_view>

#include "datapipelines/connectors/type_mapper.hpp"

namespace dp {

class SqliteTypeMapper : public TypeMapper {
 public:
  // The warning a declaration the affinity mapping cannot honour carries (BIGINT, BOOLEAN,
  // DATE/TIME/TIMESTAMP, DECIMAL(p,s)): what was promised and what the canonical type gives.
  static constexpr std::string_view kDeclaredTypeWarning = "type_mapping.sqlite_declared_type";

  // tempdb keeps a staged column's mapping warning in its declared type, so a staged table
  // read back (result schemas, introspection) carries the source column's warning: the
  // " DP_WARN_<hex of the warning JSON>" word is appended to the staged type's name.
  static std::string StagedWarningWord(const TypeWarning& warning);
  // The declared type as shown to people (`source_type`): without the staged-warning word.
  static std::string ShownDeclaredType(std::string declared);

  TypeMapping Map(const SourceType& source, std::string_view column) const override;
};

}  // namespace dp
