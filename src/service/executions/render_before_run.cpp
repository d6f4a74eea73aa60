#include "render_before_run.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/store/audit_reader.hpp"
#include "datapipelines/store/template_store.hpp"
#include "datapipelines/util/clock.hpp"

namespace dp {

void RequireRenderedTemplates(TemplateStore& template_store, AuditReader& audit_reader,
                              const Principal& principal, const Json& body,
                              const std::string& version_status,
                              const std::optional<std::string>& only_node) {
  if (version_status != "DRAFT") return;
  std::map<std::string, int64_t> last_render;
  for (const auto& call : audit_reader.SuccessfulToolCalls(principal.key_id, "templates_render")) {
    const std::string id = call.target.value("id", "");
    last_render[id] = std::max(last_render[id], call.timestamp_ms);
  }
  Json stale = Json::array();
  std::set<std::pair<std::string, int64_t>> listed;  // a template pinned by two nodes: once
  for (const Json& node : body.value("nodes", Json::array())) {
    if (only_node && node.value("id", "") != *only_node) continue;
    const Json tmpl = node.value("template", Json());
    if (!tmpl.is_object()) continue;
    auto v = template_store.FindTemplateVersion(principal.workspace_id, tmpl.value("id", ""),
                                                tmpl.value("version", 0));
    if (!v || v->status != "DRAFT") continue;
    auto rendered = last_render.find(v->template_id);
    if (rendered != last_render.end() && rendered->second >= v->updated_at_ms) continue;
    if (!listed.emplace(v->template_id, v->version).second) continue;
    stale.push_back(
        {{"id", v->template_id},
         {"version", v->version},
         {"updated_at", FormatIso8601Ms(v->updated_at_ms)},
         {"last_render",
          rendered == last_render.end() ? Json() : Json(FormatIso8601Ms(rendered->second))}});
  }
  if (stale.empty()) return;
  throw DomainError(errc::kExecutionTemplateUnrendered,
                    "The draft pins draft templates changed since this key last rendered them: "
                    "call templates_render for each, then run again.",
                    Json{{"templates", std::move(stale)}});
}

}  // namespace dp
