#pragma once
// output.target "tempdb": the rows staged into the execution's tempdb under the node's table.
#include <optional>
#include <string>

#include "datapipelines/executor/row_sink.hpp"
#include "datapipelines/executor/tempdb.hpp"

namespace dp {

class TempdbSink : public RowSink {
 public:
  TempdbSink(Tempdb& tempdb, std::string table) : tempdb_(tempdb), table_(std::move(table)) {}

  void Begin(const std::vector<ColumnSchema>& columns) override {
    writer_.emplace(tempdb_.CreateTable(table_, columns));
  }
  void Append(const RowView& row) override { writer_->Append(row); }
  int64_t Finish() override { return writer_ ? writer_->Finish() : 0; }

 private:
  Tempdb& tempdb_;
  std::string table_;
  std::optional<Tempdb::TableWriter> writer_;
};

}  // namespace dp
