#include "datapipelines/connectors/canonical_type.hpp"

#include <array>
#include <utility>

namespace dp {
namespace {

constexpr std::array<std::pair<CanonicalType, std::string_view>, 11> kCanonicalTypeNames{{
    {CanonicalType::kNull, "NULL"},
    {CanonicalType::kBoolean, "BOOLEAN"},
    {CanonicalType::kInteger, "INTEGER"},
    {CanonicalType::kBigInteger, "BIGINTEGER"},
    {CanonicalType::kDecimal, "DECIMAL"},
    {CanonicalType::kBigDecimal, "BIGDECIMAL"},
    {CanonicalType::kString, "STRING"},
    {CanonicalType::kBinary, "BINARY"},
    {CanonicalType::kDate, "DATE"},
    {CanonicalType::kTime, "TIME"},
    {CanonicalType::kTimestamp, "TIMESTAMP"},
}};

}  // namespace

std::string_view ToString(CanonicalType type) {
  for (const auto& [value, name] : kCanonicalTypeNames) {
    if (value == type) return name;
  }
  return "STRING";
}

std::optional<CanonicalType> ParseCanonicalType(std::string_view text) {
  for (const auto& [value, name] : kCanonicalTypeNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

}  // namespace dp
