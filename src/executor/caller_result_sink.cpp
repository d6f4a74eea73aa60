#include "datapipelines/executor/caller_result_sink.hpp"

#include "datapipelines/connectors/schema_envelope.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {

CallerResultSink::CallerResultSink(ResultStore& store, std::string key, std::chrono::seconds ttl,
                                   int64_t max_bytes)
    : store_(store), key_(std::move(key)), ttl_(ttl), max_bytes_(max_bytes) {}

void CallerResultSink::Begin(const std::vector<ColumnSchema>& columns) {
  result_.schema = SchemaEnvelope::Build(columns);
}

void CallerResultSink::Append(const RowView& row) {
  std::string encoded = row.ToWireArray().dump();
  bytes_ += static_cast<int64_t>(encoded.size());
  if (bytes_ > max_bytes_) {
    // Checked during the drain: an oversized result is never buffered whole.
    throw DomainError(errc::kResultTooLarge,
                      "The caller result exceeds datapipelines.result.max-size-bytes; write large "
                      "results back to a datasource and return a summary.",
                      Json{{"max_size_bytes", max_bytes_}, {"rows_read", result_.rows.size()}});
  }
  result_.rows.push_back(std::move(encoded));
}

int64_t CallerResultSink::Finish() {
  try {
    store_.Put(key_, result_, ttl_);
  } catch (const ResultStoreUnavailable& error) {
    throw DomainError(errc::kResultStorageUnavailable,
                      "The result store could not take the caller result.",
                      Json{{"backend", store_.BackendName()}});
  }
  return static_cast<int64_t>(result_.rows.size());
}

}  // namespace dp
