#include "datapipelines/mcp/tools/template_tools.hpp"

#include <optional>
#include <string>

#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/mcp/tools/list_tool_window.hpp"
#include "datapipelines/service/templates/template_service.hpp"

namespace dp {
namespace {

const std::string& Id(const Json& args) { return args["id"].get_ref<const std::string&>(); }

}  // namespace

void BindTemplateTools(ToolCatalog& catalog, TemplateService& templates) {
  catalog.Bind("templates_list", [&templates](const ToolCall& call) {
    TemplateListing listing = templates.List(
        call.principal, TemplateListQuery::FromJson(call.arguments, kListToolWindow));
    return listing.browse ? listing.BrowseJson() : listing.items;
  });
  catalog.Bind("templates_get", [&templates](const ToolCall& call) {
    return templates.Get(call.principal, Id(call.arguments),
                         OptionalIntField(call.arguments, "version"));
  });
  catalog.Bind("templates_create", [&templates](const ToolCall& call) {
    return templates.Create(call.principal, TemplateWrite::FromJson(call.arguments),
                            call.arguments.value("confirm_new_root", false),
                            TemplateSurface::kAgent);
  });
  catalog.Bind("templates_update", [&templates](const ToolCall& call) {
    // `id` names the template to update, so the write's id is that one (no rename to refuse).
    const Json& args = call.arguments;
    return templates.Update(call.principal, Id(args),
                            args["expected_hash"].get_ref<const std::string&>(),
                            TemplateWrite::FromJson(args), TemplateSurface::kAgent);
  });
  catalog.Bind("templates_render", [&templates](const ToolCall& call) {
    return templates.Render(call.principal, Id(call.arguments),
                            OptionalIntField(call.arguments, "version"), call.arguments["context"]);
  });
  catalog.Bind("templates_used_by", [&templates](const ToolCall& call) {
    return templates.UsedBy(call.principal, Id(call.arguments),
                            call.arguments["version"].get<int>());
  });
  catalog.Bind("templates_purge_draft", [&templates](const ToolCall& call) {
    return templates.PurgeDraft(call.principal, Id(call.arguments));
  });
}

}  // namespace dp
