// Dashboard (ui-screens §4.2): recent executions, drafts awaiting review, the datasources.
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/executions/execution_service.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "ui/ui_context.hpp"

namespace dp::ui {

std::optional<HttpResponse> DashboardScreen(UiContext& ctx, const std::vector<std::string>& s) {
  if (!s.empty() || ctx.IsPost()) return std::nullopt;
  ExecutionListQuery recent;
  recent.window.limit = 10;
  Json executions = ctx.s.executions.List(ctx.principal, recent);
  PipelineListQuery all;
  all.window.limit = ListWindow::kMaxLimit;
  PipelineListing listing = ctx.s.pipelines.List(ctx.principal, all);
  Json drafts = Json::array();
  for (const Json& p : listing.items) {
    if (p.value("status", Json()) == "DRAFT") drafts.push_back(p);
  }
  Json datasources = ctx.s.datasources.List(ctx.principal, std::nullopt);
  AddHrefs(executions["items"], "/ui/executions", "execution_id");
  AddHrefs(drafts, "/ui/pipelines", "id");
  AddHrefs(datasources, "/ui/datasources", "name");
  int failed = 0;
  for (const Json& e : executions["items"]) failed += e.value("status", "") == "FAILED";
  Json model{{"executions", executions["items"]},
             {"drafts", drafts},
             {"datasources", datasources},
             {"stats",
              {{"pipelines", listing.total},
               {"drafts", drafts.size()},
               {"datasources", datasources.size()},
               {"failed_recent", failed}}}};
  return ctx.Page("dashboard", std::move(model), "dashboard");
}

}  // namespace dp::ui
