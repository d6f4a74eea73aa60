#pragma once
// The staged table's shape: column-name validation (staging.md §4.5), the SQLite declared
// type of each canonical column (staging.md §5, translated), and the generated SQL.
#include <string>
#include <vector>

#include "datapipelines/connectors/column_schema.hpp"

namespace dp::tempdb_columns {

// Exact decimals beyond this many digits are refused (type-system.md §6 overflow policy,
// kept identical to the H2 ceiling the spec states).
inline constexpr int kMaxPrecision = 100000;

// Throws pipeline.staging.invalid_column_name for a label that is not
// [A-Za-z_][A-Za-z0-9_]{0,62} or repeats another case-insensitively.
void ValidateNames(const std::string& table, const std::vector<ColumnSchema>& columns);

// Throws pipeline.staging.precision_overflow for a declared precision past kMaxPrecision.
void ValidatePrecision(const std::string& table, const std::vector<ColumnSchema>& columns);

// The declared type sqlite_type_mapper.cpp reads back as the same TypeMapping.
std::string DeclaredType(const TypeMapping& mapping);

// CREATE TABLE "t" ("a" TYPE, ...) — bare, never IF NOT EXISTS (§4.5).
std::string CreateTableSql(const std::string& table, const std::vector<ColumnSchema>& columns);

// INSERT INTO "t" ("a", ...) VALUES (?, ...), (?, ...) with `rows` row groups.
std::string InsertSql(const std::string& table, const std::vector<ColumnSchema>& columns, int rows);

}  // namespace dp::tempdb_columns
