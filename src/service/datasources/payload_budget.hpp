#pragma once
// The byte bound of a probe's and a preview's answer (issue 9), as the row cap bounds its
// rows: every string cell is cut to `max_cell_bytes` (on a UTF-8 boundary), and rows stop
// being added once the encoded rows would pass `max_payload_bytes`. What was cut is
// reported in the payload (Report), never silent.
#include <cstddef>

#include "datapipelines/util/json.hpp"

namespace dp {

class PayloadBudget {
 public:
  PayloadBudget(std::size_t max_cell_bytes, std::size_t max_payload_bytes)
      : max_cell_bytes_(max_cell_bytes), max_payload_bytes_(max_payload_bytes) {}

  // Caps the row's cells; false (row not taken) once the payload budget is spent.
  bool Admit(Json& row) {
    if (exhausted_) return false;
    for (auto& cell : row) {
      if (!cell.is_string()) continue;
      auto& text = cell.get_ref<std::string&>();
      if (text.size() <= max_cell_bytes_) continue;
      std::size_t cut = max_cell_bytes_;
      while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
      text.resize(cut);
      text.shrink_to_fit();  // a cut cell must not keep the driver value's bytes alive
      ++truncated_cells_;
    }
    const std::size_t bytes = row.dump(-1, ' ', false, Json::error_handler_t::replace).size() + 1;
    if (used_bytes_ + bytes > max_payload_bytes_) {
      exhausted_ = true;
      return false;
    }
    used_bytes_ += bytes;
    return true;
  }

  bool exhausted() const { return exhausted_; }

  // Adds what was cut to the payload: truncated_reason "bytes" and the limits hit.
  void Report(Json& payload) const {
    if (exhausted_) {
      payload["truncated"] = true;
      payload["truncated_reason"] = "bytes";
      payload["max_payload_bytes"] = max_payload_bytes_;
    }
    if (truncated_cells_ > 0) {
      payload["truncated_cells"] = truncated_cells_;
      payload["max_cell_bytes"] = max_cell_bytes_;
    }
  }

 private:
  std::size_t max_cell_bytes_;
  std::size_t max_payload_bytes_;
  std::size_t used_bytes_ = 0;
  std::size_t truncated_cells_ = 0;
  bool exhausted_ = false;
};

}  // namespace dp
