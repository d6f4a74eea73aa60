#pragma once
// The caller node's result, materialized into the result store before the call returns
// (dag-executor §6.4.2): encoded row by row into wire JSON arrays, the size cap checked during
// the drain (result.too_large), stored once with the TTL fixed at write time.
#include <chrono>
#include <cstdint>
#include <string>

#include "datapipelines/executor/row_sink.hpp"
#include "datapipelines/results/result_store.hpp"

namespace dp {

class CallerResultSink : public RowSink {
 public:
  CallerResultSink(ResultStore& store, std::string key, std::chrono::seconds ttl,
                   int64_t max_bytes);

  void Begin(const std::vector<ColumnSchema>& columns) override;
  void Append(const RowView& row) override;
  // Stores the result (result.storage_unavailable when the store refuses it).
  int64_t Finish() override;

  const Json& schema() const { return result_.schema; }
  int64_t bytes() const { return bytes_; }
  int64_t rows() const { return static_cast<int64_t>(result_.rows.size()); }

 private:
  ResultStore& store_;
  std::string key_;
  std::chrono::seconds ttl_;
  int64_t max_bytes_;
  int64_t bytes_ = 0;
  StoredResult result_;
};

}  // namespace dp
