#include "datapipelines/service/audit/audit_log.hpp"

#include <spdlog/spdlog.h>

#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/util/clock.hpp"

namespace dp {

AuditLog::AuditLog(AuditSink& store, AuditWriteQueue* queue) : store_(store), queue_(queue) {}

AuditLog::~AuditLog() {
  std::lock_guard lock(aggregates_mutex_);
  for (auto& [key, aggregate] : aggregates_) FlushLocked(aggregate);
}

void AuditLog::FlushLocked(Aggregate& aggregate) noexcept {
  if (aggregate.count == 0) return;
  AuditEvent row = aggregate.latest;
  row.timestamp_ms = aggregate.last_seen_ms;
  try {
    row.details["aggregated"] = {{"count", aggregate.count},
                                 {"first_seen_ms", aggregate.first_seen_ms},
                                 {"last_seen_ms", aggregate.last_seen_ms}};
  } catch (...) {
  }
  aggregate.count = 0;
  Record(std::move(row));
}

void AuditLog::RecordRepeatable(AuditEvent event, std::string_view source) noexcept {
  constexpr int64_t kWindowMs = 60 * 1000;
  constexpr std::size_t kMaxSources = 10000;
  try {
    if (event.timestamp_ms == 0) event.timestamp_ms = NowMs();
    const int64_t now = event.timestamp_ms;
    std::string key = Capped(event.event) + '\x1f' + Capped(source);
    std::lock_guard lock(aggregates_mutex_);
    auto it = aggregates_.find(key);
    if (it != aggregates_.end() && now - it->second.window_start_ms < kWindowMs) {
      Aggregate& aggregate = it->second;
      if (aggregate.count++ == 0) aggregate.first_seen_ms = now;
      aggregate.last_seen_ms = now;
      aggregate.latest = std::move(event);
      return;
    }
    if (it != aggregates_.end()) {
      FlushLocked(it->second);
    } else {
      if (aggregates_.size() >= kMaxSources) {  // a flood of sources: write and forget all
        for (auto& [k, aggregate] : aggregates_) FlushLocked(aggregate);
        aggregates_.clear();
      }
      it = aggregates_.emplace(std::move(key), Aggregate{}).first;
    }
    it->second.window_start_ms = now;
    Record(std::move(event));
  } catch (...) {
    // Auditing never breaks the request it describes.
  }
}

std::string AuditLog::Capped(std::string_view text) {
  if (text.size() <= kMaxStringBytes) return std::string(text);
  std::size_t cut = kMaxStringBytes - 3;  // room for "…" (3 bytes)
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "\xE2\x80\xA6";
}

Json AuditLog::Bounded(const Json& value, int depth) {
  if (value.is_string()) return Capped(value.get_ref<const std::string&>());
  if (!value.is_structured()) return value;
  if (depth >= kMaxDetailDepth) return Json("\xE2\x80\xA6");
  Json out = value.is_object() ? Json::object() : Json::array();
  std::size_t n = 0;
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (n++ == kMaxDetailItems) {  // the rest is counted, not copied
      if (value.is_object()) {
        out["\xE2\x80\xA6omitted"] = value.size() - kMaxDetailItems;
      } else {
        out.push_back("\xE2\x80\xA6" + std::to_string(value.size() - kMaxDetailItems) + " omitted");
      }
      break;
    }
    if (value.is_object()) {
      out[Capped(it.key())] = Bounded(*it, depth + 1);
    } else {
      out.push_back(Bounded(*it, depth + 1));
    }
  }
  return out;
}

void AuditLog::Record(AuditEvent event) noexcept {
  try {
    if (event.timestamp_ms == 0) event.timestamp_ms = NowMs();
    for (std::string* field : {&event.event, &event.user_id, &event.key_id, &event.workspace_id,
                               &event.correlation_id, &event.source_ip}) {
      if (field->size() > kMaxStringBytes) *field = Capped(*field);
    }
    event.details = Bounded(event.details);
    if (queue_) {
      queue_->Push(std::move(event));  // a full queue counts and logs the drop
      return;
    }
    store_.AppendAudit(event);
  } catch (const std::exception& e) {
    write_failures_.fetch_add(1, std::memory_order_relaxed);
    // Only the event name: the details are not needed to diagnose a store failure.
    try {
      spdlog::error("audit write failed for event '{}': {}", event.event, e.what());
    } catch (...) {
    }
  } catch (...) {
    write_failures_.fetch_add(1, std::memory_order_relaxed);
    try {
      spdlog::error("audit write failed for event '{}'", event.event);
    } catch (...) {
    }
  }
}

AuditLog::Page AuditLog::Read(int64_t since_ms, const std::string& event_prefix, int offset,
                              int limit) {
  Flush();  // an operator reads what was done up to now, including the last request's rows
  Page page;
  page.rows = store_.ListAuditSince(since_ms, event_prefix, offset, limit + 1);
  if (static_cast<int>(page.rows.size()) > limit) {
    page.rows.resize(limit);
    page.has_more = true;
  }
  return page;
}

Json AuditLog::View(const AuditEvent& event) {
  auto id = [](const std::string& text) { return text.empty() ? Json() : Json(text); };
  return Json{{"id", event.id},
              {"timestamp", FormatIso8601Ms(event.timestamp_ms)},
              {"event", event.event},
              {"user_id", id(event.user_id)},
              {"key_id", id(event.key_id)},
              {"workspace_id", id(event.workspace_id)},
              {"correlation_id", id(event.correlation_id)},
              {"source_ip", id(event.source_ip)},
              {"details", event.details}};
}

std::optional<int64_t> AuditLog::ParseSince(std::string_view text, int64_t now_ms) {
  if (text.empty()) return std::nullopt;
  if (auto instant = ParseIso8601Utc(std::string(text))) return instant;
  const char unit = text.back();
  int64_t unit_ms = unit == 's'   ? 1000
                    : unit == 'm' ? 60'000
                    : unit == 'h' ? 3'600'000
                    : unit == 'd' ? 86'400'000
                                  : 0;
  std::string_view digits = text.substr(0, text.size() - 1);
  if (unit_ms == 0 || digits.empty() || digits.size() > 9) return std::nullopt;
  int64_t amount = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    amount = amount * 10 + (c - '0');
  }
  return now_ms - amount * unit_ms;
}

AuditReadRequest AuditReadRequest::FromJson(const Json& arguments, int64_t now_ms) {
  AuditReadRequest request;
  request.window = ListWindow::FromJson(arguments);
  if (auto text = OptionalStringField(arguments, "since")) {
    auto since = AuditLog::ParseSince(*text, now_ms);
    if (!since) {
      throw InvalidRequestField("since",
                                "must be an ISO-8601 UTC instant (2026-12-01T00:00:00Z) or a span "
                                "back from now (90s, 15m, 24h, 7d)");
    }
    request.since_ms = *since;
  }
  request.event_prefix = OptionalStringField(arguments, "event").value_or("");
  return request;
}

}  // namespace dp
