#include "datapipelines/executor/caller_result_sink.hpp"

#include "datapipelines/connectors/schema_envelope.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {

CallerResultSink::CallerResultSink(ResultStore& store, std::string key, std::chrono::seconds ttl,
                                   int64_t max_bytes)
    : store_(store), key_(std::move(key)), ttl_(ttl), max_bytes_(max_bytes) {}

void CallerResultSink::StorageUnavailable() const {
  throw DomainError(errc::kResultStorageUnavailable,
                    "The result store could not take the caller result.",
                    Json{{"backend", store_.BackendName()}});
}

void CallerResultSink::Begin(const std::vector<ColumnSchema>& columns) {
  schema_ = SchemaEnvelope::Build(columns);
  wire_.emplace(columns);
  bytes_ = rows_ = 0;
  try {
    writer_ = store_.OpenWriter(key_, ttl_);
  } catch (const ResultStoreUnavailable&) {
    StorageUnavailable();
  }
}

void CallerResultSink::Append(const RowView& row) {
  std::string encoded;
  encoded.reserve(last_row_bytes_ + 16);
  wire_->AppendArray(row, encoded);
  last_row_bytes_ = encoded.size();
  bytes_ += static_cast<int64_t>(encoded.size());
  if (bytes_ > max_bytes_) {
    // Checked during the drain: an oversized result is never stored.
    throw DomainError(errc::kResultTooLarge,
                      "The caller result exceeds datapipelines.result.max-size-bytes; write large "
                      "results back to a datasource and return a summary.",
                      Json{{"max_size_bytes", max_bytes_}, {"rows_read", rows_}});
  }
  try {
    writer_->Append(std::move(encoded));
  } catch (const ResultStoreUnavailable&) {
    StorageUnavailable();
  }
  ++rows_;
}

int64_t CallerResultSink::Finish() {
  try {
    if (!writer_) writer_ = store_.OpenWriter(key_, ttl_);  // a statement that never began
    writer_->Commit(schema_);
  } catch (const ResultStoreUnavailable&) {
    StorageUnavailable();
  }
  writer_.reset();
  return rows_;
}

}  // namespace dp
