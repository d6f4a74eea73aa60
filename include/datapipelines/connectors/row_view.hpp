#pragma once
// One streamed row: the cells as driver text (binary as raw bytes), valid only during the
// row callback. Wire() applies the canonical encoding of the cell's column.
#include <optional>
#include <string_view>
#include <vector>

#include "datapipelines/connectors/column_schema.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class RowView {
 public:
  RowView(const std::vector<ColumnSchema>& columns,
          const std::vector<std::optional<std::string_view>>& cells)
      : columns_(columns), cells_(cells) {}

  std::size_t size() const { return cells_.size(); }
  bool is_null(std::size_t i) const { return !cells_[i].has_value(); }
  std::optional<std::string_view> text(std::size_t i) const { return cells_[i]; }
  const ColumnSchema& column(std::size_t i) const { return columns_[i]; }
  Json Wire(std::size_t i) const;
  // {column name: wire value, ...} in column order.
  Json ToWireObject() const;
  Json ToWireArray() const;

 private:
  const std::vector<ColumnSchema>& columns_;
  const std::vector<std::optional<std::string_view>>& cells_;
};

}  // namespace dp
