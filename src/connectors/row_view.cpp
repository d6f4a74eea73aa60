#include "datapipelines/connectors/row_view.hpp"

#include "datapipelines/connectors/wire/wire_encoder.hpp"

namespace dp {

Json RowView::Wire(std::size_t i) const {
  return WireEncoder::Encode(columns_[i].mapping, cells_[i]);
}

Json RowView::ToWireObject() const {
  Json out = Json::object();
  out.get_ref<Json::object_t&>().reserve(cells_.size());
  // ordered_map::emplace keeps operator[]'s rule for a repeated name (first position) but the
  // later value must win, as it always has: assign when the key already exists.
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    auto [it, inserted] = out.get_ref<Json::object_t&>().emplace(columns_[i].name, Wire(i));
    if (!inserted) it->second = Wire(i);
  }
  return out;
}

Json RowView::ToWireArray() const {
  Json out = Json::array();
  out.get_ref<Json::array_t&>().reserve(cells_.size());
  for (std::size_t i = 0; i < cells_.size(); ++i) out.push_back(Wire(i));
  return out;
}

}  // namespace dp
