#pragma once
// A result held in memory and replayed into a sink later: for a statement whose rows must not be
// delivered while it still holds its session (tempdb → tempdb, where staging needs the same lock).
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/connectors/query_options.hpp"
#include "datapipelines/executor/row_sink.hpp"

namespace dp {

class BufferedRows {
 public:
  dp::ColumnsCallback ColumnsCallback() {
    return [this](const std::vector<ColumnSchema>& columns) { columns_ = columns; };
  }
  dp::RowCallback RowCallback() {
    return [this](const RowView& row) {
      std::vector<std::optional<std::string>> cells;
      cells.reserve(row.size());
      for (size_t i = 0; i < row.size(); ++i) {
        auto text = row.text(i);
        cells.push_back(text ? std::optional<std::string>(std::string(*text)) : std::nullopt);
      }
      rows_.push_back(std::move(cells));
      return true;
    };
  }

  void ReplayInto(RowSink& sink) const {
    sink.Begin(columns_);
    std::vector<std::optional<std::string_view>> views;
    for (const auto& cells : rows_) {
      views.clear();
      for (const auto& cell : cells) {
        views.push_back(cell ? std::optional<std::string_view>(*cell) : std::nullopt);
      }
      sink.Append(RowView(columns_, views));
    }
  }

 private:
  std::vector<ColumnSchema> columns_;
  std::vector<std::vector<std::optional<std::string>>> rows_;
};

}  // namespace dp
