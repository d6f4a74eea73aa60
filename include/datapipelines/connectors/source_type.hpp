#pragma once
// A source column's type as the driver or catalog reports it, input to a TypeMapper.
#include <cstdint>
#include <optional>
#include <string>

namespace dp {

struct SourceType {
  // Dialect type name, e.g. "int4"/"numeric" (PG typname), "tinyint" (MySQL), the declared
  // type string on SQLite (may be empty: no declared type).
  std::string name;
  // Dialect-native type code when known (PG oid, MySQL enum_field_types), else -1.
  int64_t code = -1;
  std::optional<int> precision;
  std::optional<int> scale;
  // Display width / declared length (MySQL tinyint(1), bit(n)).
  std::optional<int64_t> length;
  bool is_unsigned = false;
  // Binary collation/charset (MySQL charset 63): a BLOB rather than a TEXT.
  bool is_binary = false;
  // PG typcategory ('A' array, 'E' enum, ...); 0 when unknown.
  char category = 0;
  // The name shown to humans in warnings and `source_type` (e.g. "numeric(18,2)").
  std::string display;
};

}  // namespace dp
