// The audit reader over the metadata database (audit_log, migration 0001; its key index, 0004).
#include <stdexcept>

#include "datapipelines/store/audit_reader.hpp"
#include "datapipelines/store/audit_write_queue.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/sql_executor.hpp"

namespace dp {
namespace {

class SqlAuditReader : public AuditReader {
 public:
  SqlAuditReader(SqlExecutor& sql, AuditWriteQueue* pending) : sql_(sql), pending_(pending) {}

  std::vector<ToolCallRecord> SuccessfulToolCalls(const std::string& key_id,
                                                  const std::string& tool) override {
    std::vector<ToolCallRecord> out;
    if (key_id.empty()) return out;
    // Every call of the tool in the key's lifetime (a key learns once): an index range on
    // (key_id, tool), however many other calls the key has made.
    Settle();
    auto rows = sql_.Query(
        "SELECT timestamp_ms, details FROM audit_log WHERE key_id = $1 AND tool = $2 AND event = "
        "'mcp.tool.called' ORDER BY id DESC",
        {key_id, tool});
    for (const auto& row : rows) {
      Json details = Json::parse(row.at(1).value_or("{}"), nullptr, /*allow_exceptions=*/false);
      if (!details.is_object() || details.value("outcome", "") != "success") continue;
      ToolCallRecord record;
      record.timestamp_ms = row.at(0) ? std::stoll(*row.at(0)) : 0;
      record.tool = tool;
      record.target = details.value("target", Json::object());
      out.push_back(std::move(record));
    }
    return out;
  }

  bool LaunchedBy(const std::string& key_id, const std::string& correlation_id) override {
    if (key_id.empty() || correlation_id.empty()) return false;
    // The (key_id, tool) index narrows it to this key's launches.
    Settle();
    return !sql_.Query(
                    "SELECT 1 FROM audit_log WHERE key_id = $1 AND tool = 'pipelines_execute' AND "
                    "event = 'mcp.execution.launched' AND correlation_id = $2 LIMIT 1",
                    {key_id, correlation_id})
                .empty();
  }

  bool ServedBy(const std::string& key_id, const std::string& execution_id) override {
    if (key_id.empty() || execution_id.empty()) return false;
    // The key's own serve rows (the key_id index), then the execution id inside their details
    // (a stored id is a uuid: no LIKE metacharacter).
    Settle();
    return !sql_.Query(
                    "SELECT 1 FROM audit_log WHERE key_id = $1 AND event = 'endpoint.served' AND "
                    "details LIKE $2 LIMIT 1",
                    {key_id, "%\"execution_id\":\"" + execution_id + "\"%"})
                .empty();
  }

 private:
  void Settle() {
    if (pending_) pending_->Flush();
  }

  SqlExecutor& sql_;
  AuditWriteQueue* pending_;
};

}  // namespace

std::unique_ptr<AuditReader> OpenAuditReader(MetadataStore& metadata, AuditWriteQueue* pending) {
  return std::make_unique<SqlAuditReader>(metadata, pending);
}

}  // namespace dp
