#include "datapipelines/service/list_window.hpp"

#include <algorithm>

#include "datapipelines/domain/request_fields.hpp"

namespace dp {

ListWindow ListWindow::FromJson(const Json& arguments, ListWindowRules rules) {
  using OutOfRange = ListWindowRules::OutOfRange;
  ListWindow window;
  if (auto limit = OptionalIntField(arguments, "limit")) window.limit = *limit;
  if (rules.offset == ListWindowRules::Offset::kRead) {
    if (auto offset = OptionalIntField(arguments, "offset")) window.offset = *offset;
  }
  switch (rules.out_of_range) {
    case OutOfRange::kRefuse:
      if (window.limit < 1 || window.limit > kMaxLimit) {
        throw InvalidRequestField("limit", "must be 1.." + std::to_string(kMaxLimit));
      }
      if (window.offset < 0) throw InvalidRequestField("offset", "must be >= 0");
      break;
    case OutOfRange::kClampRefusingNegative:
      if (window.offset < 0) throw InvalidRequestField("offset", "must be >= 0");
      if (window.limit < 0) throw InvalidRequestField("limit", "must be >= 0");
      [[fallthrough]];
    case OutOfRange::kClamp:
      window.limit = std::clamp(window.limit, 1, kMaxLimit);
      window.offset = std::max(0, window.offset);
      break;
  }
  return window;
}

ListWindow::Slice ListWindow::Of(std::size_t total) const {
  const auto first = static_cast<std::size_t>(std::max(0, offset));
  const auto count = static_cast<std::size_t>(std::clamp(limit, 1, kMaxLimit));
  Slice slice;
  slice.begin = std::min(first, total);
  slice.end = std::min(total, slice.begin + count);
  slice.has_more = total > first + count;
  return slice;
}

}  // namespace dp
