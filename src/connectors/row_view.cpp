#include "datapipelines/connectors/row_view.hpp"

#include "datapipelines/connectors/wire_encoder.hpp"

namespace dp {

Json RowView::Wire(std::size_t i) const {
  return WireEncoder::Encode(columns_[i].mapping, cells_[i]);
}

Json RowView::ToWireObject() const {
  Json out = Json::object();
  for (std::size_t i = 0; i < cells_.size(); ++i) out[columns_[i].name] = Wire(i);
  return out;
}

Json RowView::ToWireArray() const {
  Json out = Json::array();
  for (std::size_t i = 0; i < cells_.size(); ++i) out.push_back(Wire(i));
  return out;
}

}  // namespace dp
