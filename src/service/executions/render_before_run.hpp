#pragma once
// Render before you run (spec §6.2.3, §6.2.20): on the agent surface, a DRAFT pipeline version
// pinning a DRAFT template written after this key's last successful templates_render of it is
// refused pipeline.execution.template_unrendered. RELEASED pins cannot change: exempt. Shared by
// pipelines_execute (every node) and pipelines_execute_node (the one node).
#include <optional>
#include <string>

#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class AuditReader;
class TemplateStore;

// `body` is the stored pipeline body; `only_node` restricts the scan to that node's pin.
void RequireRenderedTemplates(TemplateStore& template_store, AuditReader& audit_reader,
                              const Principal& principal, const Json& body,
                              const std::string& version_status,
                              const std::optional<std::string>& only_node = std::nullopt);

}  // namespace dp
