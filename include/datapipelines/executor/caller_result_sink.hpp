#pragma once
// The caller node's result, materialized into the result store before the call returns
// (dag-executor §6.4.2): encoded row by row into wire JSON arrays and streamed into the store
// as they are read (never held whole here), the size cap checked during the drain
// (result.too_large), published once at the end with the TTL fixed at write time.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "datapipelines/connectors/wire/wire_json_writer.hpp"
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

  const Json& schema() const { return schema_; }
  int64_t bytes() const { return bytes_; }
  int64_t rows() const { return rows_; }

 private:
  [[noreturn]] void StorageUnavailable() const;

  ResultStore& store_;
  std::string key_;
  std::chrono::seconds ttl_;
  int64_t max_bytes_;
  int64_t bytes_ = 0;
  int64_t rows_ = 0;
  std::size_t last_row_bytes_ = 64;
  Json schema_;
  std::unique_ptr<ResultWriter> writer_;
  std::optional<WireJsonWriter> wire_;  // planned once per statement at Begin
};

}  // namespace dp
