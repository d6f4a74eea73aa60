#include "tempdb_columns.hpp"

#include <cctype>
#include <set>

#include "datapipelines/connectors/sql_quoting.hpp"
#include "datapipelines/connectors/sqlite/sqlite_type_mapper.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp::tempdb_columns {
namespace {

constexpr std::size_t kMaxNameLength = 63;

// Why the label is refused; empty when its shape is valid.
std::string ShapeProblem(const std::string& name) {
  if (name.empty()) return "empty";
  if (name.size() > kMaxNameLength) return "longer than 63 characters";
  auto c0 = static_cast<unsigned char>(name[0]);
  if (!std::isalpha(c0) && c0 != '_') return "must start with a letter or underscore";
  for (unsigned char c : name) {
    if (c >= 0x80 || (!std::isalnum(c) && c != '_')) {
      return "only letters, digits and underscores are allowed";
    }
  }
  return "";
}

[[noreturn]] void RefuseName(const std::string& table, const std::string& column,
                             std::size_t ordinal, const std::string& reason) {
  throw DomainError(
      errc::kStagingInvalidColumnName,
      "column " + std::to_string(ordinal) + " of the result staged as '" + table +
          "' cannot be staged: " + reason +
          "; alias it in the node's SQL (columns are never renamed)",
      Json{{"table", table}, {"column", column}, {"ordinal", ordinal}, {"reason", reason}});
}

std::string Upper(const std::string& name) {
  std::string out = name;
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// "(p)", "(p,s)" or "": precision absent with a scale is written as precision 0.
std::string DecimalArgs(const TypeMapping& mapping) {
  if (!mapping.precision && !mapping.scale) return "";
  std::string out = "(" + std::to_string(mapping.precision.value_or(0));
  if (mapping.scale) out += "," + std::to_string(*mapping.scale);
  return out + ")";
}

}  // namespace

// The staged type of a canonical mapping, before any carried warning.
std::string BaseType(const TypeMapping& mapping);

void ValidateNames(const std::string& table, const std::vector<ColumnSchema>& columns) {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::string& name = columns[i].name;
    std::string problem = ShapeProblem(name);
    if (!problem.empty()) RefuseName(table, name, i + 1, problem);
    if (!seen.insert(Upper(name)).second) {
      RefuseName(table, name, i + 1, "duplicates another column name (case-insensitive)");
    }
  }
}

void ValidatePrecision(const std::string& table, const std::vector<ColumnSchema>& columns) {
  for (const auto& column : columns) {
    if (column.mapping.precision.value_or(0) <= kMaxPrecision) continue;
    throw DomainError(errc::kStagingPrecisionOverflow,
                      "column '" + column.name + "' declares precision " +
                          std::to_string(*column.mapping.precision) +
                          ", beyond the staging limit " + std::to_string(kMaxPrecision) +
                          "; CAST it in the source query",
                      Json{{"table", table},
                           {"column", column.name},
                           {"precision", *column.mapping.precision},
                           {"limit", kMaxPrecision}});
  }
}

std::string DeclaredType(const TypeMapping& mapping) {
  std::string type = BaseType(mapping);
  if (!mapping.warning) return type;
  // The source column's mapping warning travels with the staged column (the word goes
  // before any "(p,s)", where SQLite's type-name grammar puts the arguments).
  std::size_t paren = type.find('(');
  std::string word = SqliteTypeMapper::StagedWarningWord(*mapping.warning);
  if (paren == std::string::npos) return type + word;
  return type.substr(0, paren) + word + type.substr(paren);
}

std::string BaseType(const TypeMapping& mapping) {
  switch (mapping.type) {
    case CanonicalType::kNull:
      return "DP_NULL_TEXT";
    case CanonicalType::kBoolean:
      return "DP_BOOLEAN_INT";
    case CanonicalType::kInteger:
      return "INTEGER";
    case CanonicalType::kBigInteger:
      return "DP_BIGWHOLE_BLOB";
    case CanonicalType::kDecimal:
      return "DP_DECIMAL_REAL" + DecimalArgs(mapping);
    case CanonicalType::kBigDecimal:
      return "DP_BIGDECIMAL_TEXT" + DecimalArgs(mapping);
    case CanonicalType::kString:
      return "TEXT";
    case CanonicalType::kBinary:
      return "BLOB";
    case CanonicalType::kDate:
      return "DP_DATE_TEXT";
    case CanonicalType::kTime:
      return "DP_TIME_TEXT";
    case CanonicalType::kTimestamp:
      return "DP_TIMESTAMP_TEXT";
  }
  return "TEXT";
}

std::string CreateTableSql(const std::string& table, const std::vector<ColumnSchema>& columns) {
  std::string sql = "CREATE TABLE " + DoubleQuoted(table) + " (";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i) sql += ", ";
    sql += DoubleQuoted(columns[i].name) + " " + DeclaredType(columns[i].mapping);
  }
  return sql + ")";
}

std::string InsertSql(const std::string& table, const std::vector<ColumnSchema>& columns,
                      int rows) {
  std::string sql = "INSERT INTO " + DoubleQuoted(table) + " (";
  std::string group = "(";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i) {
      sql += ", ";
      group += ", ";
    }
    sql += DoubleQuoted(columns[i].name);
    group += "?";
  }
  group += ")";
  sql += ") VALUES ";
  for (int r = 0; r < rows; ++r) {
    if (r) sql += ", ";
    sql += group;
  }
  return sql;
}

}  // namespace dp::tempdb_columns
