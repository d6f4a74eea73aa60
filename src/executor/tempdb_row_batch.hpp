#pragma once
// One batch of staged rows, converted from the source's canonical cells into the values
// SQLite stores (staging.md §4.4 translated) and held in reused buffers: after the first
// batch, appending a row allocates nothing.
#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <vector>

#include "datapipelines/connectors/row_view.hpp"

namespace dp {

class RowBatch {
 public:
  // `table` only names the table in overflow errors.
  RowBatch(std::string table, const std::vector<ColumnSchema>& columns);

  // Converts and buffers one row. Throws pipeline.staging.value_overflow for an integer
  // beyond int64 in an INTEGER column, precision_overflow for a decimal past the ceiling.
  void Append(const RowView& row);
  int rows() const { return rows_; }
  void Clear();

  // Binds row `row` to parameters first_param.. of `stmt` (SQLITE_STATIC: the batch must
  // outlive the step).
  int Bind(sqlite3_stmt* stmt, int row, int first_param) const;

 private:
  enum class Kind : uint8_t { kNull, kInteger, kReal, kText, kBlob };
  struct Cell {
    Kind kind = Kind::kNull;
    uint32_t length = 0;
    union {
      int64_t integer;
      double real;
      std::size_t offset;  // into text_, which may grow while the batch fills
    };
  };

  void Convert(std::size_t column, std::string_view value, Cell& cell);
  void Store(std::string_view bytes, Kind kind, Cell& cell);
  void Integer(std::size_t column, std::string_view value, Cell& cell);
  void Decimal(std::string_view value, Cell& cell);
  void Boolean(std::string_view value, Cell& cell);
  void CheckDigits(std::size_t column, std::string_view value) const;

  std::string table_;
  std::vector<TypeMapping> mappings_;
  std::vector<std::string> names_;
  std::vector<Cell> cells_;  // rows_ × columns
  std::string text_;
  std::string scratch_;  // temporal normalization, reused
  int rows_ = 0;
};

}  // namespace dp
