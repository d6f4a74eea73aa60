#pragma once
// Where a DQL node's (or a child execution's caller) rows go (pipeline-contract §8.1): the
// caller result, a tempdb table, or a write-back target. One interface, so a node streams its
// source cursor into any of them — and a PIPELINE node hands the same sink to its child.
#include <cstdint>
#include <vector>

#include "datapipelines/connectors/column_schema.hpp"
#include "datapipelines/connectors/row_view.hpp"

namespace dp {

class RowSink {
 public:
  virtual ~RowSink() = default;
  // Called once with the columns before the first row (also for an empty result).
  virtual void Begin(const std::vector<ColumnSchema>& columns) = 0;
  virtual void Append(const RowView& row) = 0;
  // Completes the delivery (commit, store) and returns the rows delivered.
  virtual int64_t Finish() = 0;
};

// Counts and drops: a PIPELINE node without an output block still drains its child.
class DiscardingSink : public RowSink {
 public:
  void Begin(const std::vector<ColumnSchema>&) override {}
  void Append(const RowView&) override { ++rows_; }
  int64_t Finish() override { return rows_; }

 private:
  int64_t rows_ = 0;
};

}  // namespace dp
