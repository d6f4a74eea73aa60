#include "datapipelines/service/audit_log.hpp"

#include <spdlog/spdlog.h>

#include "datapipelines/util/clock.hpp"

namespace dp {

AuditLog::AuditLog(MetadataStore& store) : store_(store) {}

void AuditLog::Record(AuditEvent event) noexcept {
  try {
    if (event.timestamp_ms == 0) event.timestamp_ms = NowMs();
    store_.AppendAudit(event);
  } catch (const std::exception& e) {
    // Only the event name: the details are not needed to diagnose a store failure.
    try {
      spdlog::error("audit write failed for event '{}': {}", event.event, e.what());
    } catch (...) {
    }
  } catch (...) {
    try {
      spdlog::error("audit write failed for event '{}'", event.event);
    } catch (...) {
    }
  }
}

}  // namespace dp
