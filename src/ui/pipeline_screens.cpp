// Pipelines explorer and detail (ui-screens §4.3): the folder tree or a search, the body, the
// DAG as SVG, versions with the draft-vs-release diff, the release checks, and the human verbs
// release / discard draft / delete — each the PipelineService call its REST route makes.
#include <optional>

#include "datapipelines/service/executions/execution_service.hpp"
#include "datapipelines/service/pipelines/check_run_service.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "datapipelines/ui/dag_layout.hpp"
#include "ui/ui_context.hpp"

namespace dp::ui {
namespace {

// The version projection's own members, so what is left is the body as authored.
Json BodyOf(Json projection) {
  for (const char* key : {"id", "version", "status", "body_hash", "parameters", "owner",
                          "created_at", "updated_at", "current_version", "draft"}) {
    projection.erase(key);
  }
  return projection;
}

std::optional<std::string> NonEmpty(std::optional<std::string> value) {
  if (value && value->empty()) return std::nullopt;
  return value;
}

HttpResponse PipelineList(UiContext& ctx) {
  PipelineListQuery query;
  query.q = NonEmpty(ctx.Query("q"));
  if (!query.q) query.prefix = ctx.QueryOr("prefix", "");
  query.window.limit = ListWindow::kMaxLimit;
  if (auto offset = ctx.Query("offset"))
    query.window.offset = std::max(0, ParseInt(*offset, "offset"));
  PipelineListing listing = ctx.s.pipelines.List(ctx.principal, query);
  AddHrefs(listing.items, "/ui/pipelines", "id");
  for (Json& folder : listing.folders) {
    folder["href"] = "/ui/pipelines?prefix=" + EncodeSegment(folder.value("path", ""));
  }
  Json model{{"q", query.q.value_or("")},
             {"prefix", query.prefix.value_or("")},
             {"browse", listing.browse},
             {"folders", listing.folders},
             {"pipelines", listing.items},
             {"total", listing.total},
             {"has_more", listing.has_more},
             {"offset", query.window.offset},
             {"next_offset", query.window.offset + query.window.limit}};
  // Breadcrumbs of the browsed prefix: "a/b" → [{label a, prefix a}, {label b, prefix a/b}].
  Json crumbs = Json::array();
  std::string prefix = query.prefix.value_or("");
  for (size_t at = 0; at < prefix.size();) {
    size_t slash = prefix.find('/', at);
    size_t end = slash == std::string::npos ? prefix.size() : slash;
    crumbs.push_back({{"label", prefix.substr(at, end - at)},
                      {"href", "/ui/pipelines?prefix=" + EncodeSegment(prefix.substr(0, end))}});
    at = end + 1;
  }
  model["crumbs"] = crumbs;
  return ctx.Page("pipelines", std::move(model), "pipelines");
}

HttpResponse PipelineDetail(UiContext& ctx, const std::string& id) {
  std::optional<int> version;
  if (auto text = NonEmpty(ctx.Query("version"))) version = ParseInt(*text, "version");
  Json shown = ctx.s.pipelines.Get(ctx.principal, id, version);
  Json versions = ctx.s.pipelines.ListVersions(ctx.principal, id)["items"];
  Json body = BodyOf(shown);
  Json model{{"pipeline", shown},
             {"body_text", body.dump(2)},
             {"versions", versions},
             {"dag", LayoutDag(body.value("nodes", Json::array()))}};
  // The draft against the latest release (ui-screens §4.3b): what releasing would change.
  if (shown.contains("draft") && shown["current_version"].is_number_integer()) {
    Json draft =
        BodyOf(ctx.s.pipelines.Get(ctx.principal, id, shown["draft"]["version"].get<int>()));
    Json released =
        BodyOf(ctx.s.pipelines.Get(ctx.principal, id, shown["current_version"].get<int>()));
    model["diff"] = LineDiff(released.dump(2), draft.dump(2));
    model["diff_from"] = shown["current_version"];
    model["diff_to"] = shown["draft"]["version"];
  }
  model["checks"] = ctx.s.checks.Latest(ctx.principal, id, shown["version"].get<int>())["checks"];
  ExecutionListQuery runs;
  runs.pipeline_id = id;
  runs.window.limit = 10;
  Json recent = ctx.s.executions.List(ctx.principal, runs)["items"];
  AddHrefs(recent, "/ui/executions", "execution_id");
  model["executions"] = recent;
  model["self"] = UiPath({"pipelines", id});
  for (Json& v : model["versions"]) {
    v["href"] =
        model["self"].get<std::string>() + "?version=" + std::to_string(v.value("version", 0));
  }
  return ctx.Page("pipeline", std::move(model), "pipelines");
}

std::optional<std::string> ExpectedHash(UiContext& ctx) { return NonEmpty(ctx.Form("body_hash")); }

// A human verb: on success back to the detail (or the list once deleted) with a flash; on a
// refusal the detail again, showing the error with its real status.
HttpResponse PipelineVerb(UiContext& ctx, const std::string& id, const std::string& verb) {
  const std::string back = UiPath({"pipelines", id});
  try {
    if (verb == "release") {
      ctx.s.pipelines.Release(ctx.principal, id, ExpectedHash(ctx),
                              NonEmpty(ctx.Form("override_checks_reason")));
      return UiContext::Redirect(back, "released");
    }
    if (verb == "discard") {
      ctx.s.pipelines.PurgeDraft(ctx.principal, id, ExpectedHash(ctx));
      return UiContext::Redirect(back, "draft_discarded");
    }
    if (verb == "delete") {
      ctx.s.pipelines.Delete(ctx.principal, id);
      return UiContext::Redirect("/ui/pipelines", "deleted");
    }
    // "checks": a fresh run of the release checks (rest-api §5.16), via = ui.
    CheckRunRequest request;
    request.pipeline_id = id;
    if (auto v = NonEmpty(ctx.Form("version"))) request.version = ParseInt(*v, "version");
    request.via = "ui";
    request.correlation_id = ctx.http.correlation_id;
    ctx.s.checks.Run(ctx.principal, request);
    return UiContext::Redirect(back, "checks_ran");
  } catch (const DomainError& refusal) {
    ctx.refusal = refusal;
    if (verb == "delete" && refusal.code().code == "pipeline.not_found") throw;
    return PipelineDetail(ctx, id);
  }
}

}  // namespace

std::optional<HttpResponse> PipelineScreens(UiContext& ctx, const std::vector<std::string>& s) {
  if (s.empty() || s[0] != "pipelines") return std::nullopt;
  if (s.size() == 1 && !ctx.IsPost()) return PipelineList(ctx);
  if (s.size() == 2 && !ctx.IsPost()) return PipelineDetail(ctx, s[1]);
  if (s.size() == 3 && ctx.IsPost() &&
      (s[2] == "release" || s[2] == "discard" || s[2] == "delete" || s[2] == "checks")) {
    return PipelineVerb(ctx, s[1], s[2]);
  }
  return std::nullopt;
}

}  // namespace dp::ui
