#pragma once
// Reading and writing cells in the portable SQL subset, shared by every record-kind store:
// result cells are text (NULL = nullopt), parameters NULL, an integer or text.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/store/sql_executor.hpp"

namespace dp::sql_cells {

inline std::string Text(const SqlRow& row, std::size_t i) { return row.at(i).value_or(""); }

inline int64_t Int(const SqlRow& row, std::size_t i) {
  const auto& cell = row.at(i);
  return cell && !cell->empty() ? std::stoll(*cell) : 0;
}

inline SqlValue NullIfEmpty(const std::string& text) {
  if (text.empty()) return nullptr;
  return text;
}

inline SqlValue NullIfZero(int64_t value) {
  if (value == 0) return nullptr;
  return value;
}

inline SqlValue Bool(bool value) { return int64_t{value ? 1 : 0}; }

inline std::string Select(const char* columns, const std::string& rest) {
  return std::string("SELECT ") + columns + " " + rest;
}

// The first row mapped, or nullopt when there is none.
template <typename T>
std::optional<T> First(const std::vector<SqlRow>& rows, T (*map)(const SqlRow&)) {
  if (rows.empty()) return std::nullopt;
  return map(rows.front());
}

template <typename T>
std::vector<T> All(const std::vector<SqlRow>& rows, T (*map)(const SqlRow&)) {
  std::vector<T> out;
  out.reserve(rows.size());
  for (const auto& row : rows) out.push_back(map(row));
  return out;
}

}  // namespace dp::sql_cells
