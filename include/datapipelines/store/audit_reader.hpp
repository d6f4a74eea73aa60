#pragma once
// Reads an API key's own tool-call audit rows back (spec §14: since 139 the entry-point checks
// learn from them — table_not_learned at pipeline save, template_unrendered at execute).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

class AuditWriteQueue;
class MetadataStore;

struct ToolCallRecord {
  int64_t timestamp_ms = 0;
  std::string tool;
  Json target = Json::object();  // the identifier-shaped arguments the dispatcher recorded
};

class AuditReader {
 public:
  virtual ~AuditReader() = default;
  // The key's successful `mcp.tool.called` rows for `tool`, newest first.
  virtual std::vector<ToolCallRecord> SuccessfulToolCalls(const std::string& key_id,
                                                          const std::string& tool) = 0;
  // Whether an `mcp.execution.launched` row pairs this key with the execution's correlation
  // id (spec §6.2.35: the proof that this key's own MCP call started it).
  virtual bool LaunchedBy(const std::string& key_id, const std::string& correlation_id) = 0;
  // Whether an `endpoint.served` row pairs this key with the execution (auth.md §7.7: the proof
  // that an endpoint key may read that execution's result).
  virtual bool ServedBy(const std::string& key_id, const std::string& execution_id) = 0;
};

// The SQL adapter over the metadata store's own connection. With `pending` (the server's audit
// write queue), each read first waits for the rows already queued: a key's previous call is
// seen by its next one.
std::unique_ptr<AuditReader> OpenAuditReader(MetadataStore& metadata,
                                             AuditWriteQueue* pending = nullptr);

}  // namespace dp
