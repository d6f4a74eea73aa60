#include "template_projection.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "datapipelines/service/templates/template_id.hpp"
#include "datapipelines/util/ascii.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

Json DialectJson(const TemplateVersionRecord& v) {
  return v.dialect.empty() ? Json() : Json(v.dialect);
}

bool MatchesKind(const TemplateVersionRecord& v, const TemplateListQuery& query) {
  if (query.dialect && v.dialect != *query.dialect) return false;
  if (query.type && v.type != *query.type) return false;
  return true;
}

bool MatchesLeaf(const TemplateVersionRecord& v, const TemplateListQuery& query) {
  return !query.is_library || v.is_library == *query.is_library;
}

// Case-insensitive substring over the full path, display name and description.
bool TemplateMatchesText(const TemplateVersionRecord& v, const std::string& q) {
  std::string needle = AsciiLower(q);
  return AsciiLower(v.template_id).find(needle) != std::string::npos ||
         AsciiLower(v.display_name).find(needle) != std::string::npos ||
         AsciiLower(v.description).find(needle) != std::string::npos;
}

void TemplatePage(const std::vector<const TemplateVersionRecord*>& rows,
                  const TemplateListQuery& query, TemplateListing& out) {
  const ListWindow::Slice slice = query.window.Of(rows.size());
  out.total = static_cast<int64_t>(rows.size());
  for (size_t i = slice.begin; i < slice.end; ++i) out.items.push_back(TemplateListItem(*rows[i]));
  out.has_more = slice.has_more;
}

TemplateListing Browse(const std::vector<TemplateVersionRecord>& working,
                       const TemplateListQuery& query) {
  TemplateListing out;
  out.browse = true;
  out.prefix = *query.prefix;
  // "test/" names the same folder as "test": normalised (and echoed normalised), never empty.
  while (!out.prefix.empty() && out.prefix.back() == '/') out.prefix.pop_back();
  // An illegal folder path is an empty level, not an error (spec §6.2.1/§6.2.6).
  if (!out.prefix.empty() && !IsTemplateFolderPath(out.prefix)) return out;
  const std::string lead = out.prefix.empty() ? "" : out.prefix + "/";
  std::map<std::string, int64_t> folders;
  std::vector<const TemplateVersionRecord*> leaves;
  for (const auto& v : working) {
    if (!MatchesKind(v, query) || v.template_id.compare(0, lead.size(), lead) != 0) continue;
    std::string rest = v.template_id.substr(lead.size());
    size_t slash = rest.find('/');
    if (slash == std::string::npos) {
      if (MatchesLeaf(v, query)) leaves.push_back(&v);
    } else {
      ++folders[rest.substr(0, slash)];
    }
  }
  for (const auto& [segment, count] : folders) {
    out.folders.push_back(
        {{"path", lead + segment}, {"segment", segment}, {"template_count", count}});
  }
  TemplatePage(leaves, query, out);
  return out;
}

}  // namespace

std::string TemplateBodyHash(const TemplateVersionRecord& v) {
  Json content = {{"engine", v.engine},           {"type", v.type},
                  {"dialect", DialectJson(v)},    {"display_name", v.display_name},
                  {"description", v.description}, {"is_library", v.is_library},
                  {"imports", v.imports},         {"body", v.body}};
  return Sha256Hex(content.dump());
}

Json TemplateProjection(const TemplateVersionRecord& v,
                        const std::vector<TemplateVersionRecord>& all_versions) {
  Json current = nullptr;
  const TemplateVersionRecord* draft = nullptr;
  for (const auto& other : all_versions) {
    if (other.status == "RELEASED") current = other.version;
    if (other.status == "DRAFT") draft = &other;
  }
  Json out = {{"schema_version", 1},          {"id", v.template_id},
              {"version", v.version},         {"status", v.status},
              {"engine", v.engine},           {"type", v.type},
              {"dialect", DialectJson(v)},    {"display_name", v.display_name},
              {"description", v.description}, {"is_library", v.is_library},
              {"imports", v.imports},         {"body", v.body},
              {"body_hash", v.body_hash},     {"created_at", FormatIso8601Ms(v.created_at_ms)},
              {"created_by", v.created_by},   {"updated_at", FormatIso8601Ms(v.updated_at_ms)},
              {"updated_by", v.updated_by},   {"current_version", current}};
  if (draft) {
    out["draft"] = {{"version", draft->version},
                    {"body_hash", draft->body_hash},
                    {"updated_by", draft->updated_by},
                    {"updated_at", FormatIso8601Ms(draft->updated_at_ms)}};
  }
  return out;
}

Json TemplateListItem(const TemplateVersionRecord& v) {
  return {{"id", v.template_id},
          {"version", v.version},
          {"status", v.status},
          {"type", v.type},
          {"dialect", DialectJson(v)},
          {"display_name", v.display_name},
          {"description", v.description},
          {"is_library", v.is_library},
          {"updated_at", FormatIso8601Ms(v.updated_at_ms)}};
}

TemplateListing BuildTemplateListing(const std::vector<TemplateVersionRecord>& working,
                                     const TemplateListQuery& query) {
  if (query.prefix) return Browse(working, query);
  TemplateListing out;
  std::vector<const TemplateVersionRecord*> rows;
  for (const auto& v : working) {
    if (!MatchesKind(v, query) || !MatchesLeaf(v, query)) continue;
    if (query.q && !query.q->empty() && !TemplateMatchesText(v, *query.q)) continue;
    rows.push_back(&v);
  }
  TemplatePage(rows, query, out);
  return out;
}

}  // namespace dp
