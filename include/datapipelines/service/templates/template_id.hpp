#pragma once
// The template id grammar (spec §6.2.8, pipeline-contract name grammar): a FOLDER PATH of
// 2–10 lower-case segments, each [a-z0-9][a-z0-9_.-]{0,63}. Browsing prefixes are folder
// paths of 1–9 segments.
#include <string>
#include <string_view>

namespace dp {

bool IsTemplateSegment(std::string_view segment);
bool IsTemplateId(std::string_view id);
// 1–9 segments ("" is the root and is handled by callers).
bool IsTemplateFolderPath(std::string_view path);
// Throws template.validation.id_invalid; details.reason is "folder_required" for a bare
// one-segment name, "pattern" otherwise.
void ValidateTemplateId(std::string_view id);
// The first segment ("acme" for "acme/finance/x.sql").
std::string TemplateRoot(std::string_view id);
// A fresh id under the exempt scratch root: "test/tpl_<12 hex>".
std::string GenerateTestTemplateId();

}  // namespace dp
