#include "datapipelines/connectors/sqlite_type_mapper.hpp"

#include <algorithm>
#include <cctype>
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

}  // namespace

// Affinity rules in SQLite's own order: INT → CHAR/CLOB/TEXT → BLOB/none → REAL → NUMERIC.
TypeMapping SqliteTypeMapper::Map(const SourceType& source, std::string_view column) const {
  std::string declared = Upper(source.name);
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
