#include "datapipelines/connectors/postgres/postgres_type_mapper.hpp"

#include <string>
#include <unordered_map>

namespace dp {
namespace {

using CT = CanonicalType;

const std::unordered_map<std::string, CT>& PostgresSimpleTypes() {
  static const std::unordered_map<std::string, CT> kTypes{
      {"int2", CT::kInteger},
      {"int4", CT::kInteger},
      {"int2vector", CT::kInteger},
      {"int8", CT::kBigInteger},
      {"oid", CT::kBigInteger},
      {"xid", CT::kBigInteger},
      {"cid", CT::kBigInteger},
      {"xid8", CT::kBigInteger},
      {"regproc", CT::kBigInteger},
      {"regclass", CT::kBigInteger},
      {"regtype", CT::kBigInteger},
      {"bool", CT::kBoolean},
      {"char", CT::kString},
      {"bpchar", CT::kString},
      {"varchar", CT::kString},
      {"text", CT::kString},
      {"name", CT::kString},
      {"bytea", CT::kBinary},
      {"uuid", CT::kString},
      {"json", CT::kString},
      {"jsonb", CT::kString},
      {"xml", CT::kString},
      {"date", CT::kDate},
      {"time", CT::kTime},
      {"timetz", CT::kTime},
      {"timestamp", CT::kTimestamp},
      {"timestamptz", CT::kTimestamp},
      {"interval", CT::kString},
      {"bit", CT::kString},
      {"varbit", CT::kString},
      {"point", CT::kString},
      {"line", CT::kString},
      {"lseg", CT::kString},
      {"box", CT::kString},
      {"path", CT::kString},
      {"polygon", CT::kString},
      {"circle", CT::kString},
      {"inet", CT::kString},
      {"cidr", CT::kString},
      {"macaddr", CT::kString},
      {"macaddr8", CT::kString},
      {"tsvector", CT::kString},
      {"tsquery", CT::kString},
      {"jsonpath", CT::kString},
      {"unknown", CT::kString},
      {"tid", CT::kString},
      {"pg_lsn", CT::kString},
      {"int4range", CT::kString},
      {"int8range", CT::kString},
      {"numrange", CT::kString},
      {"tsrange", CT::kString},
      {"tstzrange", CT::kString},
      {"daterange", CT::kString},
      {"regnamespace", CT::kBigInteger},
  };
  return kTypes;
}

}  // namespace

TypeMapping PostgresTypeMapper::Map(const SourceType& source, std::string_view column) const {
  const std::string& name = source.name;
  // Arrays and enums are text on the wire (§5.1 rows "array types", "enum types").
  if (source.category == 'A' || (!name.empty() && name[0] == '_')) return Simple(CT::kString);
  if (source.category == 'E') return Simple(CT::kString);
  if (name == "float4") return Approximate(7);
  if (name == "float8") return Approximate(15);
  if (name == "numeric") return ExactNumeric(source.precision, source.scale);
  if (name == "money") return ExactNumeric(19, 2);
  auto it = PostgresSimpleTypes().find(name);
  if (it != PostgresSimpleTypes().end()) return Simple(it->second);
  // Range, multirange and geometric families by category; everything else is unknown.
  if (source.category == 'R' || source.category == 'G' || source.category == 'I') {
    return Simple(CT::kString);
  }
  return UnknownSourceType(source, column);
}

}  // namespace dp
