#pragma once
// The window of a listing — `limit` (default 50, 1..200) and `offset` (>= 0) — parsed once for
// every surface by ListWindow::FromJson: the MCP tools hand over their arguments, the REST routes
// their query string as typed JSON (rest/QueryArguments). A surface states how it treats a window
// outside the range (ListWindowRules) instead of each surface checking it its own way.
#include <cstddef>

#include "datapipelines/util/json.hpp"

namespace dp {

// How a surface treats a window outside 1..200 / >= 0.
struct ListWindowRules {
  enum class OutOfRange {
    // Refused, request.validation.invalid naming the field: "'limit' must be 1..200.",
    // "'offset' must be >= 0." (the REST listings, rest-api §4.3).
    kRefuse,
    // Clamped into the range, never refused (the MCP list tools: their schema caps `limit` at
    // 200 and states no minimum, so a 0 or a negative reads as 1).
    kClamp,
    // The limit clamped into 1..200, a negative limit or offset refused (the datasource listing,
    // REST §9.1).
    kClampRefusingNegative,
  };
  enum class Offset {
    kRead,     // `offset` is an argument of the surface
    kIgnored,  // it is not (the MCP list tools list from the first item): always 0
  };
  OutOfRange out_of_range = OutOfRange::kRefuse;
  Offset offset = Offset::kRead;
};

struct ListWindow {
  static constexpr int kDefaultLimit = 50;
  static constexpr int kMaxLimit = 200;

  int limit = kDefaultLimit;
  int offset = 0;

  // The rows [begin, end) of `total` this window shows, and whether more follow: the one paging
  // arithmetic of every listing that pages in memory (limit clamped into 1..200, offset >= 0).
  struct Slice {
    std::size_t begin = 0;
    std::size_t end = 0;
    bool has_more = false;
  };
  Slice Of(std::size_t total) const;

  // {limit?, offset?} (integers; absent or null = the default); a present field of another type
  // is request.validation.invalid naming it, a value out of range as `rules` say.
  static ListWindow FromJson(const Json& arguments, ListWindowRules rules = {});
};

}  // namespace dp
