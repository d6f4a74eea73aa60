#pragma once
// output.target "datasource" (dag-executor §6.4.3): the rows INSERTed into an existing table of
// the target datasource inside ONE transaction on its own session — `replace` deletes the
// table's rows first in the same transaction, `append` only inserts. Nothing is committed
// unless every row went in; a missing table is pipeline.node.writeback_target_missing, any
// other failure pipeline.node.writeback_failed.
#include <memory>
#include <string>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/connectors/pool/connection_pool.hpp"
#include "datapipelines/executor/row_sink.hpp"

namespace dp {

class WritebackSink : public RowSink {
 public:
  WritebackSink(std::shared_ptr<Connector> target, std::string datasource, std::string table,
                std::string mode, CancelToken* cancel);
  ~WritebackSink() override;  // rolls back an unfinished write

  void Begin(const std::vector<ColumnSchema>& columns) override;
  void Append(const RowView& row) override;
  int64_t Finish() override;

 private:
  [[noreturn]] void Fail(const std::exception& error);

  std::shared_ptr<Connector> target_;
  std::string datasource_;
  std::string table_;
  std::string mode_;
  CancelToken* cancel_;
  ConnectionPool::Lease lease_;
  std::string insert_sql_;
  std::vector<std::string> bind_names_;
  bool open_ = false;
  int64_t rows_ = 0;
};

}  // namespace dp
