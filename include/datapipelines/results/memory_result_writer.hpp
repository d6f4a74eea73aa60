#pragma once
// Writes one result into the in-process store: rows are moved in as they come (no copy of the
// whole result), bytes are reserved against the store's cap as they grow — a full store refuses
// the writer on its first rows — and Commit publishes them at once. A writer dropped before
// Commit gives its reservation back.
#include <chrono>
#include <string>

#include "datapipelines/results/memory_result_store.hpp"

namespace dp {

class MemoryResultWriter : public ResultWriter {
 public:
  MemoryResultWriter(MemoryResultStore& store, std::string key, std::chrono::seconds ttl);
  ~MemoryResultWriter() override;

  void Append(std::string row) override;
  void Commit(Json schema) override;

 private:
  // Makes sure `needed` bytes are reserved, taking them in chunks; refuses when full.
  void Cover(std::size_t needed);

  MemoryResultStore& store_;
  std::string key_;
  std::chrono::seconds ttl_;
  std::size_t row_bytes_ = 0;  // what the rows so far cost
  std::size_t reserved_ = 0;   // what the store has set aside for this writer
  bool committed_ = false;
  StoredResult result_;
};

}  // namespace dp
