#include "datapipelines/mcp/tools/template_tools.hpp"

#include <optional>
#include <string>

#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/service/template_service.hpp"

namespace dp {
namespace {

// Arguments are schema-validated before a handler runs, so present means well-typed.
std::optional<std::string> OptionalString(const Json& args, const char* field) {
  auto it = args.find(field);
  if (it == args.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

std::optional<int> OptionalInt(const Json& args, const char* field) {
  auto it = args.find(field);
  if (it == args.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int>();
}

const std::string& Id(const Json& args) { return args["id"].get_ref<const std::string&>(); }

TemplateWrite WriteFrom(const Json& args) {
  TemplateWrite write;
  write.id = OptionalString(args, "id");
  write.engine = OptionalString(args, "engine");
  write.type = OptionalString(args, "type");
  write.dialect = OptionalString(args, "dialect");
  write.display_name = args.value("display_name", std::string());
  write.description = args.value("description", std::string());
  write.imports = args.value("imports", Json::array());
  write.is_library = args.value("is_library", false);
  write.body = args.value("body", std::string());
  return write;
}

Json ListResult(const TemplateListing& listing) {
  if (!listing.browse) return listing.items;
  return Json{{"prefix", listing.prefix},
              {"folders", listing.folders},
              {"templates", listing.items},
              {"total", listing.total},
              {"has_more", listing.has_more}};
}

}  // namespace

void BindTemplateTools(ToolCatalog& catalog, TemplateService& templates) {
  catalog.Bind("templates_list", [&templates](const ToolCall& call) {
    const Json& args = call.arguments;
    TemplateListQuery query;
    query.dialect = OptionalString(args, "dialect");
    query.type = OptionalString(args, "type");
    query.q = OptionalString(args, "q");
    query.prefix = OptionalString(args, "prefix");
    if (args.contains("is_library")) query.is_library = args["is_library"].get<bool>();
    query.limit = OptionalInt(args, "limit").value_or(50);
    return ListResult(templates.List(call.principal, query));
  });
  catalog.Bind("templates_get", [&templates](const ToolCall& call) {
    return templates.Get(call.principal, Id(call.arguments),
                         OptionalInt(call.arguments, "version"));
  });
  catalog.Bind("templates_create", [&templates](const ToolCall& call) {
    return templates.Create(call.principal, WriteFrom(call.arguments),
                            call.arguments.value("confirm_new_root", false),
                            TemplateSurface::kAgent);
  });
  catalog.Bind("templates_update", [&templates](const ToolCall& call) {
    const Json& args = call.arguments;
    TemplateWrite write = WriteFrom(args);
    write.id.reset();
    return templates.Update(call.principal, Id(args),
                            args["expected_hash"].get_ref<const std::string&>(), write,
                            TemplateSurface::kAgent);
  });
  catalog.Bind("templates_render", [&templates](const ToolCall& call) {
    return templates.Render(call.principal, Id(call.arguments),
                            OptionalInt(call.arguments, "version"), call.arguments["context"]);
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
