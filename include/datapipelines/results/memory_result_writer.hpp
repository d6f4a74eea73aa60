#pragma once
// Writes one result into the in-process store: rows are moved in as they come (no copy of the
// whole result), the memory cap is checked as they grow, and Commit publishes them at once.
#include <chrono>
#include <string>

#include "datapipelines/results/memory_result_store.hpp"

namespace dp {

class MemoryResultWriter : public ResultWriter {
 public:
  MemoryResultWriter(MemoryResultStore& store, std::string key, std::chrono::seconds ttl);

  void Append(std::string row) override;
  void Commit(Json schema) override;

 private:
  MemoryResultStore& store_;
  std::string key_;
  std::chrono::seconds ttl_;
  std::size_t row_bytes_ = 0;
  StoredResult result_;
};

}  // namespace dp
