#include "datapipelines/results/memory_result_writer.hpp"

#include <memory>

namespace dp {

MemoryResultWriter::MemoryResultWriter(MemoryResultStore& store, std::string key,
                                       std::chrono::seconds ttl)
    : store_(store), key_(std::move(key)), ttl_(ttl) {}

void MemoryResultWriter::Append(std::string row) {
  row_bytes_ += MemoryResultStore::RowBytes(row);
  // Refused while it grows: a result that can never fit is not buffered to the end first.
  if (!store_.Fits(row_bytes_)) {
    throw ResultStoreUnavailable("memory result store is full: the result outgrew its " +
                                 std::to_string(store_.max_bytes()) + " bytes");
  }
  result_.rows.push_back(std::move(row));
}

void MemoryResultWriter::Commit(Json schema) {
  result_.schema = std::move(schema);
  std::size_t bytes = MemoryResultStore::EstimateBytes(key_, result_.schema.dump(), StoredResult{});
  bytes += row_bytes_;
  store_.Publish(key_, std::make_shared<const StoredResult>(std::move(result_)), bytes, ttl_);
}

}  // namespace dp
