#include "datapipelines/connectors/sqlite/sqlite_type_mapper.hpp"

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
constexpr std::string_view kWarnWord = " DP_WARN_";

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// The warning a staged column carries (StagedWarningWord); absent when none or unreadable.
std::optional<TypeWarning> StagedWarning(const std::string& hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string bytes;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    int hi = HexDigit(hex[i]), lo = HexDigit(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    bytes.push_back(static_cast<char>(hi * 16 + lo));
  }
  Json doc = Json::parse(bytes, nullptr, false);
  if (!doc.is_object()) return std::nullopt;
  return TypeWarning{doc.value("code", ""), doc.value("message", ""), doc.value("column", ""),
                     doc.value("source_type", "")};
}

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

// A declaration the §5.7 affinity mapping cannot honour: one warning naming what the
// declared type promised and what the canonical type gives instead.
TypeMapping Declared(TypeMapping mapping, const SourceType& source, std::string_view column,
                     const std::string& promise, const std::string& gives) {
  const std::string& shown = source.display.empty() ? source.name : source.display;
  mapping.warning =
      TypeWarning{std::string(SqliteTypeMapper::kDeclaredTypeWarning),
                  "Column '" + std::string(column) + "' declares " + shown + " (" + promise +
                      "); SQLite stores it by affinity, so the canonical type is " + gives + ".",
                  std::string(column), shown};
  return mapping;
}

}  // namespace

std::string SqliteTypeMapper::StagedWarningWord(const TypeWarning& warning) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string bytes = warning.ToJson().dump();
  std::string out(kWarnWord);
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xf]);
  }
  return out;
}

std::string SqliteTypeMapper::ShownDeclaredType(std::string declared) {
  std::string upper = Upper(declared);
  std::size_t word = upper.find(kWarnWord);
  if (word == std::string::npos) return declared;
  std::size_t end = upper.find_first_of(" (", word + kWarnWord.size());
  return declared.erase(word, end == std::string::npos ? std::string::npos : end - word);
}

// Affinity rules in SQLite's own order: INT → CHAR/CLOB/TEXT → BLOB/none → REAL → NUMERIC.
// Where a declaration names a width or kind the affinity's canonical type cannot hold, the
// column carries a type_mapping.sqlite_declared_type warning; a 64-bit integer declaration
// takes BIGINTEGER so no value past int32 is truncated on the wire (docs/types.md).
TypeMapping SqliteTypeMapper::Map(const SourceType& source, std::string_view column) const {
  std::string declared = Upper(source.name);
  if (std::size_t word = declared.find(kWarnWord); word != std::string::npos) {
    // A staged column: its own type, and the warning its source column carried.
    std::size_t end = declared.find_first_of(" (", word + kWarnWord.size());
    std::string hex = declared.substr(
        word + kWarnWord.size(), end == std::string::npos ? end : end - word - kWarnWord.size());
    SourceType bare = source;
    bare.name = declared.substr(0, word) + (end == std::string::npos ? "" : declared.substr(end));
    bare.display = bare.name;
    TypeMapping mapping = Map(bare, column);
    mapping.warning = StagedWarning(hex);
    if (mapping.warning) mapping.warning->column = std::string(column);
    return mapping;
  }
  if (auto staged = MapTempdbType(declared)) return *staged;
  if (Has(declared, "INT")) {
    if (Has(declared, "BIGINT") || Has(declared, "INT8") || Has(declared, "BIG INT")) {
      return Declared(Simple(CanonicalType::kBigInteger), source, column, "a 64-bit integer",
                      "BIGINTEGER (a JSON string) rather than the int32 INTEGER, so values past "
                      "int32 arrive exactly");
    }
    return Simple(CanonicalType::kInteger);
  }
  if (Has(declared, "CHAR") || Has(declared, "CLOB") || Has(declared, "TEXT")) {
    return Simple(CanonicalType::kString);
  }
  if (Has(declared, "BLOB")) return Simple(CanonicalType::kBinary);
  if (declared.find_first_not_of(" \t") == std::string::npos) {
    return Simple(CanonicalType::kString);  // no declared type: the text fallback (§5.7)
  }
  // Temporal-looking declarations stay text: no heuristic parsing in v1 (§5.7 policy).
  if (Has(declared, "DATE") || Has(declared, "TIME")) {
    return Declared(Simple(CanonicalType::kString), source, column, "a date or time",
                    "STRING: values arrive exactly as stored (ISO text, epoch number or Julian "
                    "day), not normalised; CAST or format them in the template");
  }
  if (Has(declared, "REAL") || Has(declared, "FLOA") || Has(declared, "DOUB")) {
    return Approximate(15);
  }
  // NUMERIC affinity: conservative DECIMAL(15).
  if (Has(declared, "BOOL")) {
    return Declared(Approximate(15), source, column, "a boolean",
                    "DECIMAL(15): values arrive as the numbers 0 and 1; compare with 0/1 or "
                    "CASE them in the template");
  }
  std::size_t paren = declared.find('(');
  TypeArgs args = ParseArgs(declared, paren);
  if (args.first) {
    std::string exact = args.second ? "exact, precision " + std::to_string(*args.first) +
                                          ", scale " + std::to_string(*args.second)
                                    : "exact, precision " + std::to_string(*args.first);
    return Declared(Approximate(15), source, column, exact,
                    "the approximate DECIMAL(15) without a scale: values are stored as INTEGER "
                    "or REAL (a double), so the declared scale is not kept");
  }
  return Approximate(15);
}

}  // namespace dp
