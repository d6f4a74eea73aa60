#pragma once
// The Dialect enum (type-system.md §5, enums.md §5) and which of them this build serves.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dp {

enum class Dialect { kPostgres, kOracle, kMssql, kMysql, kH2, kDuckdb, kSqlite, kLake };

std::string_view ToString(Dialect dialect);
// Case-sensitive, the enum spelling ("POSTGRES"); nullopt for anything else.
std::optional<Dialect> ParseDialect(std::string_view text);
// ParseDialect or DomainError(datasource.validation.dialect_invalid) naming the valid set.
Dialect ParseDialectOrThrow(std::string_view text);
// True when this build has a native driver for the dialect.
bool IsDialectServed(Dialect dialect);
// Every dialect's name in enum order, or only the served ones.
std::vector<std::string> DialectNames(bool served_only = false);

}  // namespace dp
