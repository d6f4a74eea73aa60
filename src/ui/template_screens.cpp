// Templates explorer and detail (ui-screens §4.6): the tree or a search; the body with line
// numbers, the versions, who pins the shown version, and release / discard / purge draft /
// delete — the TemplateService calls of the REST human verbs.
#include <sstream>

#include "datapipelines/service/templates/template_service.hpp"
#include "ui/ui_context.hpp"

namespace dp::ui {
namespace {

HttpResponse TemplateList(UiContext& ctx) {
  TemplateListQuery query;
  if (auto q = ctx.Query("q"); q && !q->empty()) query.q = *q;
  if (!query.q) query.prefix = ctx.QueryOr("prefix", "");
  query.window.limit = ListWindow::kMaxLimit;
  TemplateListing listing = ctx.s.templates.List(ctx.principal, query);
  AddHrefs(listing.items, "/ui/templates", "id");
  for (Json& folder : listing.folders) {
    folder["href"] = "/ui/templates?prefix=" + EncodeSegment(folder.value("path", ""));
  }
  Json model{{"q", query.q.value_or("")},  {"prefix", query.prefix.value_or("")},
             {"browse", listing.browse},   {"folders", listing.folders},
             {"templates", listing.items}, {"total", listing.total}};
  return ctx.Page("templates", std::move(model), "templates");
}

HttpResponse TemplateDetail(UiContext& ctx, const std::string& id) {
  std::optional<int> version;
  if (auto text = ctx.Query("version"); text && !text->empty())
    version = ParseInt(*text, "version");
  Json shown = ctx.s.templates.Get(ctx.principal, id, version);
  Json lines = Json::array();
  std::istringstream in(shown.value("body", std::string()));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) lines.push_back({{"n", n}, {"text", line}});
  Json model{{"template", shown},
             {"lines", lines},
             {"versions", ctx.s.templates.ListVersions(ctx.principal, id)["items"]},
             {"self", UiPath({"templates", id})}};
  if (shown["version"].is_number_integer()) {
    model["used_by"] = ctx.s.templates.UsedBy(ctx.principal, id, shown["version"].get<int>());
    AddHrefs(model["used_by"]["references"], "/ui/pipelines", "pipeline_id");  // who pins it
  }
  return ctx.Page("template", std::move(model), "templates");
}

HttpResponse TemplateVerb(UiContext& ctx, const std::string& id, const std::string& verb) {
  const std::string back = UiPath({"templates", id});
  try {
    if (verb == "release") {
      std::optional<std::string> expected;
      if (auto hash = ctx.Form("expected_hash"); hash && !hash->empty()) expected = *hash;
      ctx.s.templates.Release(ctx.principal, id, expected);
      return UiContext::Redirect(back, "released");
    }
    if (verb == "discard") {
      ctx.s.templates.Discard(ctx.principal, id, ParseInt(ctx.FormOr("version"), "version"));
      return UiContext::Redirect(back, "discarded");
    }
    if (verb == "purge-draft") {
      ctx.s.templates.PurgeDraft(ctx.principal, id);
      return UiContext::Redirect(back, "draft_discarded");
    }
    ctx.s.templates.Delete(ctx.principal, id);
    return UiContext::Redirect("/ui/templates", "deleted");
  } catch (const DomainError& refusal) {
    ctx.refusal = refusal;
    return TemplateDetail(ctx, id);
  }
}

}  // namespace

std::optional<HttpResponse> TemplateScreens(UiContext& ctx, const std::vector<std::string>& s) {
  if (s.empty() || s[0] != "templates") return std::nullopt;
  if (s.size() == 1 && !ctx.IsPost()) return TemplateList(ctx);
  if (s.size() == 2 && !ctx.IsPost()) return TemplateDetail(ctx, s[1]);
  if (s.size() == 3 && ctx.IsPost() &&
      (s[2] == "release" || s[2] == "discard" || s[2] == "purge-draft" || s[2] == "delete")) {
    return TemplateVerb(ctx, s[1], s[2]);
  }
  return std::nullopt;
}

}  // namespace dp::ui
