#include "pipeline_projection.hpp"

#include <algorithm>
#include <set>

#include "datapipelines/domain/version_status.hpp"
#include "datapipelines/pipeline/pipeline_body_parser.hpp"
#include "datapipelines/pipeline/pipeline_structure_validator.hpp"
#include "datapipelines/pipeline/validation_problems.hpp"
#include "datapipelines/service/pipelines/folder_level.hpp"
#include "datapipelines/service/templates/template_id.hpp"
#include "datapipelines/util/ascii.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

bool IsLivePipelineVersion(const PipelineVersionRecord& v) {
  return v.status == kDraftStatus || v.status == kReleasedStatus;
}

// Derived execute inputs (spec §6.2.2): one entry per calculator key, after the declared ones.
Json WithDerivedParameters(const Json& body) {
  Json parameters = body.value("parameters", Json::object());
  ValidationProblems ignored;
  PipelineBody parsed = PipelineBodyParser::Parse(body, ignored);
  Json derived = DerivedParameters(parsed);
  for (auto it = derived.begin(); it != derived.end(); ++it) {
    if (!parameters.contains(it.key())) parameters[it.key()] = it.value();
  }
  return parameters;
}

bool PipelineMatchesText(const PipelineWithVersions& p, const Json& body, const std::string& q) {
  std::string needle = AsciiLower(q);
  for (const std::string& field : {p.entity.name, body.value("display_name", std::string()),
                                   body.value("description", std::string())}) {
    if (AsciiLower(field).find(needle) != std::string::npos) return true;
  }
  return false;
}

bool MatchesFlat(const PipelineWithVersions& p, const PipelineListQuery& query) {
  const PipelineVersionRecord* working = WorkingPipelineVersion(p);
  if (!working) return false;
  if (query.owner && p.entity.owner != *query.owner) return false;
  if (query.q && !PipelineMatchesText(p, working->body, *query.q)) return false;
  if (query.datasource) {
    auto used = DatasourcesOfBody(working->body);
    if (std::find(used.begin(), used.end(), *query.datasource) == used.end()) return false;
  }
  return true;
}

void PipelinePage(const std::vector<const PipelineWithVersions*>& rows,
                  const PipelineListQuery& query, PipelineListing& out) {
  const ListWindow::Slice slice = query.window.Of(rows.size());
  out.total = static_cast<int64_t>(rows.size());
  for (size_t i = slice.begin; i < slice.end; ++i) out.items.push_back(PipelineListItem(*rows[i]));
  out.has_more = slice.has_more;
}

}  // namespace

const PipelineVersionRecord* WorkingPipelineVersion(const PipelineWithVersions& p) {
  for (auto it = p.versions.rbegin(); it != p.versions.rend(); ++it) {
    if (IsLivePipelineVersion(*it)) return &*it;
  }
  return nullptr;
}

const PipelineVersionRecord* DraftPipelineVersion(const PipelineWithVersions& p) {
  for (const auto& v : p.versions) {
    if (v.status == kDraftStatus) return &v;
  }
  return nullptr;
}

const PipelineVersionRecord* CurrentPipelineVersion(const PipelineWithVersions& p) {
  for (auto it = p.versions.rbegin(); it != p.versions.rend(); ++it) {
    if (it->status == kReleasedStatus) return &*it;
  }
  return nullptr;
}

Json PipelineVersionProjection(const PipelineWithVersions& p, const PipelineVersionRecord& v) {
  Json out = Json::object();
  out["id"] = p.entity.id;
  out["version"] = v.version;
  out["status"] = v.status;
  out["body_hash"] = v.body_hash;
  for (auto it = v.body.begin(); it != v.body.end(); ++it) out[it.key()] = it.value();
  out["parameters"] = WithDerivedParameters(v.body);
  out["owner"] = p.entity.owner;
  out["created_at"] = FormatIso8601Ms(p.entity.created_at_ms);
  out["updated_at"] = FormatIso8601Ms(v.updated_at_ms);
  const PipelineVersionRecord* current = CurrentPipelineVersion(p);
  out["current_version"] = current ? Json(current->version) : Json();
  if (const PipelineVersionRecord* draft = DraftPipelineVersion(p)) {
    out["draft"] = {{"version", draft->version},
                    {"body_hash", draft->body_hash},
                    {"updated_by", draft->updated_by},
                    {"updated_at", FormatIso8601Ms(draft->updated_at_ms)}};
  }
  return out;
}

Json PipelineVersionSummary(const PipelineVersionRecord& v) {
  return Json{{"version", v.version},
              {"status", v.status},
              {"body_hash", v.body_hash},
              {"created_at", FormatIso8601Ms(v.created_at_ms)},
              {"created_by", v.created_by},
              {"updated_at", FormatIso8601Ms(v.updated_at_ms)},
              {"released_at", IsoOrNull(v.released_at_ms)},
              {"released_by", v.released_by.empty() ? Json() : Json(v.released_by)}};
}

Json PipelineListItem(const PipelineWithVersions& p) {
  const PipelineVersionRecord* working = WorkingPipelineVersion(p);
  Json body = working ? working->body : Json::object();
  return Json{{"id", p.entity.id},
              {"name", p.entity.name},
              {"display_name", body.value("display_name", std::string())},
              {"description", body.value("description", std::string())},
              {"version", working ? Json(working->version) : Json()},
              {"status", working ? Json(working->status) : Json()},
              {"owner", p.entity.owner},
              {"updated_at", working ? Json(FormatIso8601Ms(working->updated_at_ms)) : Json()}};
}

std::vector<std::string> DatasourcesOfBody(const Json& body) {
  std::set<std::string> names;
  for (const Json& node : body.value("nodes", Json::array())) {
    if (!node.is_object()) continue;
    std::string source = node.value("source", std::string());
    if (!source.empty() && source != "tempdb") names.insert(source);
    auto output = node.find("output");
    if (output != node.end() && output->is_object() && output->contains("datasource") &&
        (*output)["datasource"].is_string()) {
      names.insert((*output)["datasource"].get<std::string>());
    }
  }
  return {names.begin(), names.end()};
}

PipelineListing BuildPipelineListing(const std::vector<PipelineWithVersions>& pipelines,
                                     const PipelineListQuery& query) {
  PipelineListing out;
  std::vector<const PipelineWithVersions*> rows;
  if (!query.prefix) {
    for (const auto& p : pipelines) {
      if (MatchesFlat(p, query)) rows.push_back(&p);
    }
    PipelinePage(rows, query, out);
    return out;
  }
  out.browse = true;
  out.prefix = *query.prefix;
  // "test/" names the same folder as "test": normalised (and echoed normalised).
  while (!out.prefix.empty() && out.prefix.back() == '/') out.prefix.pop_back();
  // owner, datasource and q are ignored while browsing: a different presentation (§6.2.1).
  std::vector<std::string_view> paths;
  std::vector<const PipelineWithVersions*> live;
  for (const auto& p : pipelines) {
    if (!WorkingPipelineVersion(p)) continue;
    paths.push_back(p.entity.name);
    live.push_back(&p);
  }
  FolderLevel level = BrowseFolderLevel(paths, out.prefix);
  for (const auto& folder : level.folders) {
    out.folders.push_back(
        {{"path", folder.path}, {"segment", folder.segment}, {"pipeline_count", folder.count}});
  }
  for (size_t index : level.leaves) rows.push_back(live[index]);
  PipelinePage(rows, query, out);
  return out;
}

std::string PipelineBodyHash(const Json& canonical_body) {
  return Sha256Hex(canonical_body.dump());
}

Json PipelineListing::BrowseJson() const {
  return Json{{"prefix", prefix},
              {"folders", folders},
              {"pipelines", items},
              {"total", total},
              {"has_more", has_more}};
}

}  // namespace dp
