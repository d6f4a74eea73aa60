#pragma once
// The 11 canonical logical types (type-system.md §3): the wire contract every result uses.
#include <optional>
#include <string_view>

namespace dp {

enum class CanonicalType {
  kNull,
  kBoolean,
  kInteger,
  kBigInteger,
  kDecimal,
  kBigDecimal,
  kString,
  kBinary,
  kDate,
  kTime,
  kTimestamp,
};

// "BIGINTEGER", "DECIMAL", ... exactly as spelled on the wire.
std::string_view ToString(CanonicalType type);
std::optional<CanonicalType> ParseCanonicalType(std::string_view text);

}  // namespace dp
