#pragma once
// The audit sink (MCP spec §14, auth.md §10): one append per event. Auditing must never
// break the request it describes, so a store failure is logged and swallowed.
#include "datapipelines/store/metadata_store.hpp"

namespace dp {

class AuditLog {
 public:
  explicit AuditLog(MetadataStore& store);

  // Fills timestamp_ms when it is 0. Never throws.
  void Record(AuditEvent event) noexcept;

 private:
  MetadataStore& store_;
};

}  // namespace dp
