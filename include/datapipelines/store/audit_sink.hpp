#pragma once
// The audit log port (metadata-db §4.8): append-only rows, listed back newest first. Details
// never carry SQL text, row data, parameter values or secrets (AuditLog decides what goes in).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

class SqlExecutor;

struct AuditEvent {
  int64_t id = 0;  // assigned by the store
  int64_t timestamp_ms = 0;
  std::string event;  // "mcp.tool.called", "auth.api_key.created", ...
  std::string user_id;
  std::string key_id;
  std::string workspace_id;
  std::string correlation_id;
  std::string source_ip;
  Json details = Json::object();
};

class AuditSink {
 public:
  virtual ~AuditSink() = default;
  virtual void AppendAudit(const AuditEvent& event) = 0;
  // All the rows or none, in one statement and one commit.
  virtual void AppendAuditBatch(const std::vector<AuditEvent>& events) = 0;
  // Newest first; event_prefix "" = all; the prefix is literal and case-sensitive; limit <= 0
  // returns nothing.
  virtual std::vector<AuditEvent> ListAudit(const std::string& event_prefix, int limit) = 0;
  // The rows at or after since_ms whose event starts with event_prefix, newest first, one page
  // (offset rows skipped, at most limit returned).
  virtual std::vector<AuditEvent> ListAuditSince(int64_t since_ms, const std::string& event_prefix,
                                                 int offset, int limit) = 0;
};

// The SQL adapter, written once in the portable subset for both backends.
std::unique_ptr<AuditSink> OpenAuditSink(SqlExecutor& sql);

}  // namespace dp
