#include "datapipelines/connectors/duckdb/duckdb_type_mapper.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

namespace dp {
namespace {

std::string UpperTrimmed(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool IsNested(const std::string& name) {
  return name.find('[') != std::string::npos || name.rfind("STRUCT", 0) == 0 ||
         name.rfind("MAP", 0) == 0 || name.rfind("UNION", 0) == 0 || name.rfind("LIST", 0) == 0;
}

}  // namespace

TypeMapping DuckdbTypeMapper::Map(const SourceType& source, std::string_view column) const {
  std::string name = UpperTrimmed(source.name);
  if (IsNested(name)) return UnknownSourceType(source, column);
  std::size_t paren = name.find('(');
  std::string base = name.substr(0, paren);
  while (!base.empty() && base.back() == ' ') base.pop_back();
  if (base == "TINYINT" || base == "SMALLINT" || base == "INTEGER" || base == "INT" ||
      base == "SIGNED" || base == "INT1" || base == "INT2" || base == "INT4" ||
      base == "UTINYINT" || base == "USMALLINT") {
    return Simple(CanonicalType::kInteger);
  }
  // UINTEGER exceeds int32 and UBIGINT int64: both widen one step.
  if (base == "BIGINT" || base == "INT8" || base == "LONG" || base == "UINTEGER") {
    return Simple(CanonicalType::kBigInteger);
  }
  if (base == "UBIGINT" || base == "HUGEINT" || base == "UHUGEINT" || base == "INT128" ||
      base == "UINT128") {
    return TypeMapping{CanonicalType::kBigDecimal, 38, 0, std::nullopt};
  }
  if (base == "DECIMAL" || base == "NUMERIC") {
    std::optional<int> precision = source.precision;
    std::optional<int> scale = source.scale;
    if (paren != std::string::npos) {
      const char* cursor = name.c_str() + paren + 1;
      char* end = nullptr;
      precision = static_cast<int>(std::strtol(cursor, &end, 10));
      scale = 0;
      if (*end == ',') scale = static_cast<int>(std::strtol(end + 1, nullptr, 10));
    }
    if (!precision) precision = 18, scale = scale.value_or(3);  // DuckDB's bare DECIMAL
    return ExactNumeric(precision, scale);
  }
  if (base == "FLOAT" || base == "REAL" || base == "FLOAT4") return Approximate(7);
  if (base == "DOUBLE" || base == "FLOAT8" || base == "DOUBLE PRECISION") return Approximate(15);
  if (base == "BOOLEAN" || base == "BOOL" || base == "LOGICAL") {
    return Simple(CanonicalType::kBoolean);
  }
  if (base == "DATE") return Simple(CanonicalType::kDate);
  if (base == "TIME" || base == "TIME WITHOUT TIME ZONE" || base == "TIME WITH TIME ZONE" ||
      base == "TIMETZ") {
    return Simple(CanonicalType::kTime);
  }
  if (base.rfind("TIMESTAMP", 0) == 0 || base == "DATETIME" || base == "TIMESTAMPTZ") {
    return Simple(CanonicalType::kTimestamp);
  }
  if (base == "VARCHAR" || base == "CHAR" || base == "TEXT" || base == "STRING" ||
      base == "BPCHAR" || base == "UUID" || base == "JSON" || base == "INTERVAL" ||
      base == "ENUM" || base == "NULL" || base == "\"NULL\"") {
    return Simple(CanonicalType::kString);
  }
  if (base == "BLOB" || base == "BYTEA" || base == "VARBINARY" || base == "BINARY") {
    return Simple(CanonicalType::kBinary);
  }
  return UnknownSourceType(source, column);
}

}  // namespace dp
