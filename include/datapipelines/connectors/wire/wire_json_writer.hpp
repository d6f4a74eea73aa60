#pragma once
// Streams rows as JSON straight into a std::string: byte for byte what
// RowView::ToWireObject().dump() / ToWireArray().dump() produce, without building a Json per
// row or a std::string per cell. One writer per statement (it plans the object keys once).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/connectors/column_schema.hpp"
#include "datapipelines/connectors/row_view.hpp"
#include "datapipelines/connectors/type_mapping.hpp"

namespace dp {

class WireJsonWriter {
 public:
  explicit WireJsonWriter(const std::vector<ColumnSchema>& columns);

  // {"name":value,...}; a repeated column name keeps its first position and its last value,
  // as Json's operator[] does in ToWireObject.
  void AppendObject(const RowView& row, std::string& out);
  // [value,...] in column order.
  void AppendArray(const RowView& row, std::string& out);
  // One cell's wire value (WireEncoder::Encode(...).dump()).
  void AppendValue(const TypeMapping& mapping, std::optional<std::string_view> text,
                   std::string& out);

  // A JSON string exactly as Json::dump() writes it (ensure_ascii off, strict): `"`, `\`,
  // \b \f \n \r \t and \u00xx for the other controls; invalid UTF-8 throws the same
  // nlohmann type_error 316 dump() throws.
  static void AppendString(std::string_view text, std::string& out);

 private:
  struct Key {
    std::string quoted;  // "\"name\":"
    std::size_t column;  // the cell whose value the key carries
  };
  std::vector<Key> keys_;
  std::string scratch_;
};

}  // namespace dp
