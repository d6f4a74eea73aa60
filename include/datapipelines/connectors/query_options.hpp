#pragma once
// Per-statement knobs and the streaming callbacks of Connection::Query.
#include <cstdint>
#include <functional>
#include <vector>

#include "datapipelines/connectors/column_schema.hpp"
#include "datapipelines/connectors/row_view.hpp"

namespace dp {

class CancelToken;

struct QueryOptions {
  // 0 = the connector's configured query timeout; < 0 = none. Enforced server-side by
  // cancelling the running statement at the deadline.
  int timeout_ms = 0;
  CancelToken* cancel = nullptr;  // optional external cancel
  int64_t max_rows = -1;          // stop (and mark truncated) after this many rows
};

// Called once with the mapped columns before the first row (also for empty results).
using ColumnsCallback = std::function<void(const std::vector<ColumnSchema>&)>;
// Return false to stop reading; the rest of the result is discarded.
using RowCallback = std::function<bool(const RowView&)>;

struct QueryResult {
  std::vector<ColumnSchema> columns;
  int64_t row_count = 0;
  bool truncated = false;      // stopped by max_rows or the callback
  int64_t affected_rows = -1;  // for statements without a result set
};

}  // namespace dp
