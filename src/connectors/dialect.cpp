#include "datapipelines/connectors/dialect.hpp"

#include <array>
#include <utility>

namespace dp {
namespace {

constexpr std::array<std::pair<Dialect, std::string_view>, 8> kNames{{
    {Dialect::kPostgres, "POSTGRES"},
    {Dialect::kOracle, "ORACLE"},
    {Dialect::kMssql, "MSSQL"},
    {Dialect::kMysql, "MYSQL"},
    {Dialect::kH2, "H2"},
    {Dialect::kDuckdb, "DUCKDB"},
    {Dialect::kSqlite, "SQLITE"},
    {Dialect::kLake, "LAKE"},
}};

}  // namespace

std::string_view ToString(Dialect dialect) {
  for (const auto& [value, name] : kNames) {
    if (value == dialect) return name;
  }
  return "POSTGRES";
}

std::optional<Dialect> ParseDialect(std::string_view text) {
  for (const auto& [value, name] : kNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

bool IsDialectServed(Dialect dialect) {
  return dialect == Dialect::kPostgres || dialect == Dialect::kMysql || dialect == Dialect::kSqlite;
}

}  // namespace dp
