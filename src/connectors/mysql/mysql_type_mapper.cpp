#include "datapipelines/connectors/mysql/mysql_type_mapper.hpp"

#include <string>
#include <unordered_map>

namespace dp {
namespace {

using CT = CanonicalType;

const std::unordered_map<std::string, CT>& MysqlSimpleTypes() {
  static const std::unordered_map<std::string, CT> kTypes{
      {"smallint", CT::kInteger},
      {"year", CT::kInteger},
      {"date", CT::kDate},
      {"time", CT::kTime},
      {"datetime", CT::kTimestamp},
      {"timestamp", CT::kTimestamp},
      {"char", CT::kString},
      {"varchar", CT::kString},
      {"tinytext", CT::kString},
      {"text", CT::kString},
      {"mediumtext", CT::kString},
      {"longtext", CT::kString},
      {"enum", CT::kString},
      {"set", CT::kString},
      {"json", CT::kString},
      {"binary", CT::kBinary},
      {"varbinary", CT::kBinary},
      {"tinyblob", CT::kBinary},
      {"blob", CT::kBinary},
      {"mediumblob", CT::kBinary},
      {"longblob", CT::kBinary},
      {"geometry", CT::kString},
      {"point", CT::kString},
      {"linestring", CT::kString},
      {"polygon", CT::kString},
      {"multipoint", CT::kString},
      {"multilinestring", CT::kString},
      {"multipolygon", CT::kString},
      {"geometrycollection", CT::kString},
      {"inet6", CT::kString},
      {"inet4", CT::kString},
      {"uuid", CT::kString},
      {"null", CT::kNull},
  };
  return kTypes;
}

TypeMapping MapInteger(const SourceType& source) {
  const std::string& name = source.name;
  // Connector/J's tinyInt1isBit default: tinyint(1) is reported as BIT → BOOLEAN.
  if (name == "tinyint" && source.length && *source.length == 1) return Simple(CT::kBoolean);
  if (name == "bigint") {
    // An unsigned bigint exceeds int64: exact 20-digit numeric.
    return source.is_unsigned ? ExactNumeric(20, 0) : Simple(CT::kBigInteger);
  }
  if ((name == "int" || name == "integer") && source.is_unsigned) {
    return Simple(CT::kBigInteger);
  }
  return Simple(CT::kInteger);
}

}  // namespace

TypeMapping MysqlTypeMapper::Map(const SourceType& source, std::string_view column) const {
  const std::string& name = source.name;
  if (name == "tinyint" || name == "smallint" || name == "mediumint" || name == "int" ||
      name == "integer" || name == "bigint") {
    return MapInteger(source);
  }
  if (name == "bool" || name == "boolean") return Simple(CT::kBoolean);
  if (name == "decimal" || name == "numeric") return ExactNumeric(source.precision, source.scale);
  if (name == "float") return Approximate(7);
  if (name == "double" || name == "real" || name == "double precision") return Approximate(15);
  if (name == "bit") {
    return source.length.value_or(1) <= 1 ? Simple(CT::kBoolean) : Simple(CT::kBinary);
  }
  // The result protocol reports BLOB/TEXT and (VAR)BINARY/(VAR)CHAR alike; the charset
  // decides (63 = binary).
  if (source.is_binary && (name == "char" || name == "varchar" || name == "text" ||
                           name == "tinytext" || name == "mediumtext" || name == "longtext")) {
    return Simple(CT::kBinary);
  }
  auto it = MysqlSimpleTypes().find(name);
  if (it != MysqlSimpleTypes().end()) return Simple(it->second);
  return UnknownSourceType(source, column);
}

}  // namespace dp
