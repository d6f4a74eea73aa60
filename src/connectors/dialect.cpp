#include "datapipelines/connectors/dialect.hpp"

#include <array>
#include <string>
#include <utility>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

constexpr std::array<std::pair<Dialect, std::string_view>, 8> kDialectNames{{
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
  for (const auto& [value, name] : kDialectNames) {
    if (value == dialect) return name;
  }
  return "POSTGRES";
}

std::optional<Dialect> ParseDialect(std::string_view text) {
  for (const auto& [value, name] : kDialectNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

Dialect ParseDialectOrThrow(std::string_view text) {
  if (auto dialect = ParseDialect(text)) return *dialect;
  Json valid = DialectNames();
  throw DomainError(errc::kDatasourceDialectInvalid,
                    "dialect '" + std::string(text) + "' is not one of " + valid.dump(),
                    Json{{"dialect", std::string(text)}, {"valid", valid}});
}

bool IsDialectServed(Dialect dialect) {
  return dialect == Dialect::kPostgres || dialect == Dialect::kMysql ||
         dialect == Dialect::kSqlite || dialect == Dialect::kDuckdb || dialect == Dialect::kLake;
}

std::vector<std::string> DialectNames(bool served_only) {
  std::vector<std::string> names;
  for (const auto& [value, name] : kDialectNames) {
    if (!served_only || IsDialectServed(value)) names.emplace_back(name);
  }
  return names;
}

}  // namespace dp
