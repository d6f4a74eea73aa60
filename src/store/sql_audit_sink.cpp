// The audit log (migrations 0001, 0004), written once in the portable SQL subset.
#include "datapipelines/store/audit_sink.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>

#include "datapipelines/store/sql_executor.hpp"
#include "sql_cells.hpp"

namespace dp {
namespace {

using sql_cells::All;
using sql_cells::Int;
using sql_cells::NullIfEmpty;
using sql_cells::Select;
using sql_cells::Text;

constexpr const char* kAuditColumns =
    "id, timestamp_ms, event, user_id, key_id, workspace_id, correlation_id, source_ip, details";

AuditEvent ToAudit(const SqlRow& r) {
  AuditEvent e;
  e.id = Int(r, 0);
  e.timestamp_ms = Int(r, 1);
  e.event = Text(r, 2);
  e.user_id = Text(r, 3);
  e.key_id = Text(r, 4);
  e.workspace_id = Text(r, 5);
  e.correlation_id = Text(r, 6);
  e.source_ip = Text(r, 7);
  e.details = Json::parse(Text(r, 8), nullptr, /*allow_exceptions=*/false);
  if (e.details.is_discarded()) e.details = Json::object();
  return e;
}

// The tool a tool-call row names, as its own column (migration 0004); NULL for other events.
SqlValue ToolOf(const Json& details) {
  if (!details.is_object()) return nullptr;
  auto it = details.find("tool");
  if (it == details.end() || !it->is_string()) return nullptr;
  return it->get<std::string>();
}

constexpr std::string_view kAuditInsert =
    "INSERT INTO audit_log (timestamp_ms, event, user_id, key_id, workspace_id, correlation_id, "
    "source_ip, details, tool) VALUES ";
constexpr int kAuditColumnCount = 9;

void AppendAuditValues(const AuditEvent& e, std::vector<SqlValue>& params) {
  params.insert(
      params.end(),
      {e.timestamp_ms, e.event, NullIfEmpty(e.user_id), NullIfEmpty(e.key_id),
       NullIfEmpty(e.workspace_id), NullIfEmpty(e.correlation_id), NullIfEmpty(e.source_ip),
       e.details.is_null() ? std::string("{}") : e.details.dump(), ToolOf(e.details)});
}

// The prefix filter is substr(event, 1, n) = prefix rather than LIKE: '_' in event names is not
// a wildcard and case matters on both backends, which count substr() in characters, not bytes.
int64_t CharacterCount(const std::string& utf8) {
  return std::count_if(utf8.begin(), utf8.end(),
                       [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}

// "($1, …, $9), ($10, …, $18), …" for `rows` rows.
std::string AuditPlaceholders(std::size_t rows) {
  std::string text;
  int n = 0;
  for (std::size_t row = 0; row < rows; ++row) {
    text += row == 0 ? "(" : ", (";
    for (int column = 0; column < kAuditColumnCount; ++column) {
      if (column > 0) text += ", ";
      text += '$' + std::to_string(++n);
    }
    text += ')';
  }
  return text;
}

class SqlAuditSink final : public AuditSink {
 public:
  explicit SqlAuditSink(SqlExecutor& sql) : sql_(sql) {}

  void AppendAudit(const AuditEvent& event) override;
  void AppendAuditBatch(const std::vector<AuditEvent>& events) override;
  std::vector<AuditEvent> ListAudit(const std::string& event_prefix, int limit) override;
  std::vector<AuditEvent> ListAuditSince(int64_t since_ms, const std::string& event_prefix,
                                         int offset, int limit) override;

 private:
  SqlExecutor& sql_;
};

void SqlAuditSink::AppendAudit(const AuditEvent& e) { AppendAuditBatch({e}); }

void SqlAuditSink::AppendAuditBatch(const std::vector<AuditEvent>& events) {
  if (events.empty()) return;
  std::vector<SqlValue> params;
  params.reserve(events.size() * kAuditColumnCount);
  for (const AuditEvent& event : events) AppendAuditValues(event, params);
  sql_.Execute(std::string(kAuditInsert) + AuditPlaceholders(events.size()), params);
}

std::vector<AuditEvent> SqlAuditSink::ListAudit(const std::string& event_prefix, int limit) {
  if (limit <= 0) return {};
  int64_t prefix_length = CharacterCount(event_prefix);
  return All(sql_.Query(Select(kAuditColumns,
                               "FROM audit_log WHERE substr(event, 1, $2) = $1 "
                               "ORDER BY id DESC LIMIT $3"),
                        {event_prefix, prefix_length, int64_t{limit}}),
             &ToAudit);
}

std::vector<AuditEvent> SqlAuditSink::ListAuditSince(int64_t since_ms,
                                                     const std::string& event_prefix, int offset,
                                                     int limit) {
  if (limit <= 0) return {};
  int64_t prefix_length = CharacterCount(event_prefix);
  return All(
      sql_.Query(
          Select(kAuditColumns,
                 "FROM audit_log WHERE timestamp_ms >= $1 AND substr(event, 1, $3) = $2 "
                 "ORDER BY id DESC LIMIT $4 OFFSET $5"),
          {since_ms, event_prefix, prefix_length, int64_t{limit}, int64_t{std::max(offset, 0)}}),
      &ToAudit);
}

}  // namespace

std::unique_ptr<AuditSink> OpenAuditSink(SqlExecutor& sql) {
  return std::make_unique<SqlAuditSink>(sql);
}

}  // namespace dp
