#include "datapipelines/results/memory_result_writer.hpp"

#include <algorithm>
#include <memory>

namespace dp {
namespace {

// Bytes reserved at a time: the store's lock is taken once per this many bytes of rows.
constexpr std::size_t kReserveChunk = std::size_t{256} << 10;

}  // namespace

MemoryResultWriter::MemoryResultWriter(MemoryResultStore& store, std::string key,
                                       std::chrono::seconds ttl)
    : store_(store), key_(std::move(key)), ttl_(ttl) {
  // A store already full refuses before the query runs at all.
  Cover(MemoryResultStore::EntryBytes(key_, ""));
}

MemoryResultWriter::~MemoryResultWriter() {
  if (!committed_) store_.Unreserve(reserved_);
}

void MemoryResultWriter::Cover(std::size_t needed) {
  if (needed <= reserved_) return;
  const std::size_t missing = needed - reserved_;
  // A chunk when there is room for one, else exactly what is missing (a small cap's last bytes).
  for (std::size_t ask : {std::max(missing, kReserveChunk), missing}) {
    if (store_.Reserve(ask)) {
      reserved_ += ask;
      return;
    }
    if (ask == missing) break;
  }
  throw ResultStoreUnavailable("memory result store is full: the result needs more than the " +
                               std::to_string(store_.max_bytes()) +
                               " bytes the store may hold beside the results it keeps");
}

void MemoryResultWriter::Append(std::string row) {
  // A row built by appending may own twice its length: keep only what it needs.
  if (row.capacity() - row.size() > row.size() / 4 + 16) row.shrink_to_fit();
  row_bytes_ += MemoryResultStore::RowBytes(row);
  Cover(row_bytes_);
  result_.rows.push_back(std::move(row));
}

void MemoryResultWriter::Commit(Json schema) {
  result_.rows.shrink_to_fit();  // the vector's growth slack is not kept for the TTL
  const std::size_t bytes = row_bytes_ + MemoryResultStore::EntryBytes(key_, schema.dump());
  result_.schema = std::move(schema);
  const std::size_t reserved = reserved_;
  reserved_ = 0;
  committed_ = true;  // Publish takes the reservation whatever it answers
  store_.Publish(key_, std::make_shared<const StoredResult>(std::move(result_)), bytes, reserved,
                 ttl_);
}

}  // namespace dp
