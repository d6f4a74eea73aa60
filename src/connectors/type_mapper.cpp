#include "datapipelines/connectors/type_mapper.hpp"

#include "datapipelines/connectors/duckdb_type_mapper.hpp"
#include "datapipelines/connectors/fallback_type_mapper.hpp"
#include "datapipelines/connectors/mysql_type_mapper.hpp"
#include "datapipelines/connectors/postgres_type_mapper.hpp"
#include "datapipelines/connectors/sqlite_type_mapper.hpp"

namespace dp {

const TypeMapper& TypeMapperFor(Dialect dialect) {
  static const PostgresTypeMapper kPostgres;
  static const MysqlTypeMapper kMysql;
  static const SqliteTypeMapper kSqlite;
  static const DuckdbTypeMapper kDuckdb;
  static const FallbackTypeMapper kFallback;
  switch (dialect) {
    case Dialect::kPostgres:
      return kPostgres;
    case Dialect::kMysql:
      return kMysql;
    case Dialect::kSqlite:
      return kSqlite;
    case Dialect::kDuckdb:
    case Dialect::kLake:
      return kDuckdb;  // §5.8: LAKE's engine is DuckDB, one table
    default:
      // Oracle/MSSQL/H2 have no native driver in this build (§11.2 else path).
      return kFallback;
  }
}

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
