#include "datapipelines/connectors/sqlite_type_mapper.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>

namespace dp {
namespace {

std::string Upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

bool Has(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

// Integer arguments of a declared "NAME(a[, b])"; absent when not written.
struct TypeArgs {
  std::optional<int> first;
  std::optional<int> second;
};

TypeArgs ParseArgs(const std::string& declared, std::size_t paren) {
  TypeArgs args;
  if (paren == std::string::npos) return args;
  const char* cursor = declared.c_str() + paren + 1;
  char* end = nullptr;
  long first = std::strtol(cursor, &end, 10);
  if (end == cursor) return args;
  args.first = static_cast<int>(first);
  while (*end == ' ') ++end;
  if (*end != ',') return args;
  cursor = end + 1;
  long second = std::strtol(cursor, &end, 10);
  if (end != cursor) args.second = static_cast<int>(second);
  return args;
}

// tempdb declared types. The executor's staging layer (src/executor/tempdb_columns.cpp)
// declares every staged column with one of these so that a column read straight back keeps
// its canonical type, precision and scale (SQLite itself has no DATE, BOOLEAN or exact
// decimal). The suffix is chosen for the SQLite affinity it yields — the INT/TEXT/REAL/BLOB
// substring rules — so values are stored without coercion:
//   DP_NULL_TEXT                 NULL        TEXT affinity
//   DP_BOOLEAN_INT               BOOLEAN     INTEGER affinity, 0/1
//   DP_BIGWHOLE_BLOB             BIGINTEGER  no affinity ("INT" avoided): int64 stays INTEGER,
//                                            a value beyond int64 stays exact TEXT
//   DP_DECIMAL_REAL(p[,s])       DECIMAL     REAL affinity: p ≤ 15 round-trips via double
//   DP_BIGDECIMAL_TEXT[(p,s)]    BIGDECIMAL  TEXT affinity, byte-identical; p 0 = unsized
//   DP_DATE_TEXT / DP_TIME_TEXT / DP_TIMESTAMP_TEXT   ISO 8601 text
// INTEGER, STRING and BINARY stage as plain INTEGER, TEXT and BLOB. A user's SQLite file
// that happens to declare these names gets the same reading, which is harmless.
std::optional<TypeMapping> MapTempdbType(const std::string& declared) {
  if (declared.rfind("DP_", 0) != 0) return std::nullopt;
  std::size_t paren = declared.find('(');
  std::string name = declared.substr(0, paren);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  TypeArgs args = ParseArgs(declared, paren);
  if (name == "DP_NULL_TEXT") return Simple(CanonicalType::kNull);
  if (name == "DP_BOOLEAN_INT") return Simple(CanonicalType::kBoolean);
  if (name == "DP_BIGWHOLE_BLOB") return Simple(CanonicalType::kBigInteger);
  if (name == "DP_DATE_TEXT") return Simple(CanonicalType::kDate);
  if (name == "DP_TIME_TEXT") return Simple(CanonicalType::kTime);
  if (name == "DP_TIMESTAMP_TEXT") return Simple(CanonicalType::kTimestamp);
  if (name == "DP_DECIMAL_REAL") {
    return TypeMapping{CanonicalType::kDecimal, args.first, args.second, std::nullopt};
  }
  if (name == "DP_BIGDECIMAL_TEXT") {
    std::optional<int> precision = args.first.value_or(0) > 0 ? args.first : std::nullopt;
    return TypeMapping{CanonicalType::kBigDecimal, precision, args.second, std::nullopt};
  }
  return std::nullopt;
}

}  // namespace

// Affinity rules in SQLite's own order: INT → CHAR/CLOB/TEXT → BLOB/none → REAL → NUMERIC.
TypeMapping SqliteTypeMapper::Map(const SourceType& source, std::string_view column) const {
  std::string declared = Upper(source.name);
  if (auto staged = MapTempdbType(declared)) return *staged;
  if (Has(declared, "INT")) return Simple(CanonicalType::kInteger);
  if (Has(declared, "CHAR") || Has(declared, "CLOB") || Has(declared, "TEXT")) {
    return Simple(CanonicalType::kString);
  }
  if (Has(declared, "BLOB")) return Simple(CanonicalType::kBinary);
  if (declared.find_first_not_of(" \t") == std::string::npos) {
    return Simple(CanonicalType::kString);  // no declared type: the text fallback (§5.7)
  }
  // Temporal-looking declarations stay text: no heuristic parsing in v1 (§5.7 policy).
  if (Has(declared, "DATE") || Has(declared, "TIME")) return Simple(CanonicalType::kString);
  if (Has(declared, "REAL") || Has(declared, "FLOA") || Has(declared, "DOUB")) {
    return Approximate(15);
  }
  return Approximate(15);  // NUMERIC affinity: conservative DECIMAL(15)
}

}  // namespace dp
