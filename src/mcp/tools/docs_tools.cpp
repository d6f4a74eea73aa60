#include "datapipelines/mcp/tools/docs_tools.hpp"

#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/service/docs/skill_docs.hpp"

namespace dp {

void BindDocsTools(ToolCatalog& catalog, const SkillDocs& docs) {
  catalog.Bind("docs_list", [&docs](const ToolCall&) {
    Json list = Json::array();
    for (const SkillDoc& doc : docs.List()) {
      list.push_back({{"name", doc.name}, {"title", doc.title}, {"purpose", doc.purpose}});
    }
    return list;
  });
  catalog.Bind("docs_get", [&docs](const ToolCall& call) {
    const SkillDoc& doc = docs.Require(call.arguments["name"].get_ref<const std::string&>());
    return Json{{"name", doc.name}, {"title", doc.title}, {"markdown", std::string(doc.markdown)}};
  });
}

}  // namespace dp
