#pragma once
// The audit sink (MCP spec §14, auth.md §10): one append per event. Auditing must never
// break the request it describes, so a store failure is logged and swallowed. With a write
// queue (the server's), rows are written by the queue's thread in batches and a request never
// waits for the database; without one (tools, tests), each row is written before Record
// returns.
#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "datapipelines/service/list_window.hpp"
#include "datapipelines/store/audit_sink.hpp"
#include "datapipelines/store/audit_write_queue.hpp"

namespace dp {

// One read of the log for operators (GET /api/v1/admin/audit): rows at or after since_ms whose
// event starts with event_prefix, one window of them.
struct AuditReadRequest {
  int64_t since_ms = 0;
  std::string event_prefix;
  ListWindow window;

  // {since?, event?, limit?, offset?}: the window refused out of range (ListWindowRules'
  // default), `since` as AuditLog::ParseSince reads it against now_ms, else
  // request.validation.invalid naming it.
  static AuditReadRequest FromJson(const Json& arguments, int64_t now_ms);
};

class AuditLog {
 public:
  // queue: nullptr writes synchronously; otherwise it must outlive this log.
  explicit AuditLog(AuditSink& store, AuditWriteQueue* queue = nullptr);
  ~AuditLog();  // writes the pending aggregates

  // Fills timestamp_ms when it is 0. Never throws. Every string is capped at
  // kMaxStringBytes (cut on a UTF-8 boundary, marked with a trailing "…"), details nest at
  // most kMaxDetailDepth levels and carry at most kMaxDetailItems members per level, so no
  // request can inflate a row.
  void Record(AuditEvent event) noexcept;

  // A refusal an unauthenticated caller can repeat at will (a bad key, a throttled login):
  // the first one per (event, source) in a minute is a row of its own; the rest of that
  // minute are counted and written as ONE row when the next window opens (or at shutdown),
  // its details.aggregated = {count, first_seen_ms, last_seen_ms}. Never throws.
  void RecordRepeatable(AuditEvent event, std::string_view source) noexcept;

  // One page of the log for operators (`datapipelines audit`, GET /api/v1/admin/audit): rows at
  // or after since_ms whose event starts with event_prefix, newest first. has_more says a
  // further page exists.
  struct Page {
    std::vector<AuditEvent> rows;
    bool has_more = false;
  };
  Page Read(int64_t since_ms, const std::string& event_prefix, int offset, int limit);
  Page Read(const AuditReadRequest& request) {
    return Read(request.since_ms, request.event_prefix, request.window.offset,
                request.window.limit);
  }
  // The wire shape of one row (timestamps ISO-8601 UTC; empty ids are null).
  static Json View(const AuditEvent& event);
  // "--since" as operators write it: an ISO-8601 UTC instant, or a span back from now_ms
  // ("90s", "15m", "24h", "7d"). nullopt when it is neither.
  static std::optional<int64_t> ParseSince(std::string_view text, int64_t now_ms);

  // Rows the store refused, since start (the metrics endpoint reports it).
  int64_t WriteFailures() const {
    return write_failures_.load(std::memory_order_relaxed) + (queue_ ? queue_->WriteFailures() : 0);
  }
  // Rows dropped because the write queue was full, since start.
  int64_t Dropped() const { return queue_ ? queue_->Dropped() : 0; }
  // Returns once every row recorded so far is in the store.
  void Flush() {
    if (queue_) queue_->Flush();
  }

  static constexpr std::size_t kMaxStringBytes = 256;
  static constexpr int kMaxDetailDepth = 4;
  static constexpr std::size_t kMaxDetailItems = 32;
  // The bounded copy of one audited value (what Record stores).
  static Json Bounded(const Json& value, int depth = 0);
  static std::string Capped(std::string_view text);

 private:
  struct Aggregate {
    int64_t window_start_ms = 0;
    int64_t count = 0;  // refusals since the window's own row
    int64_t first_seen_ms = 0;
    int64_t last_seen_ms = 0;
    AuditEvent latest;
  };
  void FlushLocked(Aggregate& aggregate) noexcept;

  AuditSink& store_;
  AuditWriteQueue* queue_;
  std::mutex aggregates_mutex_;
  std::unordered_map<std::string, Aggregate> aggregates_;
  std::atomic<int64_t> write_failures_{0};
};

}  // namespace dp
