#pragma once
// How a template version looks on the wire (spec §6.2.6–8, §6.2.36) and how a listing is
// cut from the working versions: pure functions, shared by every TemplateService verb.
#include <string>
#include <vector>

#include "datapipelines/service/templates/template_service.hpp"
#include "datapipelines/store/template_records.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// SHA-256 hex over the version's content (engine, type, dialect, display_name, description,
// is_library, imports, body) in a fixed field order: equal content, equal hash, always.
std::string TemplateBodyHash(const TemplateVersionRecord& version);

// The full projection of `version`: the entity fields, status, body_hash, current_version
// (latest RELEASED or null) and, when `all_versions` holds a draft, the draft pointer.
Json TemplateProjection(const TemplateVersionRecord& version,
                        const std::vector<TemplateVersionRecord>& all_versions);

// One listing row: id, version, status, type, dialect, display_name, description,
// is_library, updated_at.
Json TemplateListItem(const TemplateVersionRecord& working);

// Filters and pages the working versions (ordered by id) per `query`: flat, or one level of
// the folder tree when query.prefix is set (folder counts over the whole subtree; is_library
// narrows leaves only; q ignored).
TemplateListing BuildTemplateListing(const std::vector<TemplateVersionRecord>& working,
                                     const TemplateListQuery& query);

}  // namespace dp
