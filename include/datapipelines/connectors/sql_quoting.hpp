#pragma once
// SQL quoting shared by every engine we generate statements for (PostgreSQL, SQLite, DuckDB):
// the standard doubling of the quote character. Callers refuse names that must never reach
// SQL (blank, NUL) before quoting; these only quote.
#include <string>
#include <string_view>

namespace dp {

// "name" with every " doubled: a delimited identifier.
std::string DoubleQuoted(std::string_view name);
// 'value' with every ' doubled: a string literal.
std::string SingleQuoted(std::string_view value);

}  // namespace dp
