#pragma once
// Builders for staging synthetic rows into a Tempdb and reading them back.
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "datapipelines/connectors/type_mapper.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/executor/tempdb.hpp"

namespace dp::tempdb_test {

using Cells = std::vector<std::optional<std::string>>;

inline ColumnSchema Column(std::string name, TypeMapping mapping) {
  ColumnSchema column;
  column.name = std::move(name);
  column.mapping = mapping;
  return column;
}

inline ColumnSchema Column(std::string name, CanonicalType type) {
  return Column(std::move(name), Simple(type));
}

// Appends each row's cells (nullopt = SQL NULL) through a RowView, as a connector would.
inline void AppendRows(Tempdb::TableWriter& writer, const std::vector<ColumnSchema>& columns,
                       const std::vector<Cells>& rows) {
  std::vector<std::optional<std::string_view>> views;
  for (const auto& row : rows) {
    views.clear();
    for (const auto& cell : row) {
      views.push_back(cell ? std::optional<std::string_view>(*cell) : std::nullopt);
    }
    writer.Append(RowView(columns, views));
  }
}

inline int64_t Stage(Tempdb& db, const std::string& table, const std::vector<ColumnSchema>& columns,
                     const std::vector<Cells>& rows) {
  auto writer = db.CreateTable(table, columns);
  AppendRows(writer, columns, rows);
  return writer.Finish();
}

struct ReadBack {
  std::vector<ColumnSchema> columns;
  std::vector<Cells> text;
  std::vector<Json> wire;  // one array per row
};

inline ReadBack Read(Tempdb& db, const std::string& sql, const BindMap& binds = {}) {
  ReadBack out;
  QueryResult result = db.Query(sql, binds, QueryOptions{}, [&](const RowView& row) {
    Cells cells;
    for (std::size_t i = 0; i < row.size(); ++i) {
      auto text = row.text(i);
      cells.push_back(text ? std::optional<std::string>(std::string(*text)) : std::nullopt);
    }
    out.text.push_back(std::move(cells));
    out.wire.push_back(row.ToWireArray());
    return true;
  });
  out.columns = result.columns;
  return out;
}

template <typename Fn>
DomainError Refusal(Fn&& fn) {
  try {
    fn();
  } catch (const DomainError& error) {
    return error;
  }
  ADD_FAILURE() << "expected a DomainError";
  return DomainError(ErrorCode{"none", 0}, "none");
}

}  // namespace dp::tempdb_test
