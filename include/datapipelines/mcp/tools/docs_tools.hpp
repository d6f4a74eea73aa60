#pragma once

namespace dp {

class SkillDocs;
class ToolCatalog;

// docs_list and docs_get (spec §6.2.40–41): the skill documents, from the one SkillDocs reader.
void BindDocsTools(ToolCatalog& catalog, const SkillDocs& docs);

}  // namespace dp
