// Execution history and detail (ui-screens §4.8, §4.9): filters by pipeline, status and age;
// node stats as a timeline, the event log, the failure record with its root cause, and the
// first result page with a CSV download from the REST cursor.
#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "datapipelines/service/executions/execution_service.hpp"
#include "datapipelines/util/clock.hpp"
#include "ui/ui_context.hpp"

namespace dp::ui {
namespace {

constexpr int kTimelineWidth = 640;
constexpr int kPreviewRows = 50;

std::string Cell(const Json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

// Epoch ms of the records' "2026-01-01T00:00:00.123Z" (milliseconds optional); 0 when absent.
int64_t Ms(const Json& iso) {
  if (!iso.is_string()) return 0;
  std::string text = iso.get<std::string>();
  int64_t millis = 0;
  if (size_t dot = text.find('.');
      dot != std::string::npos && text.size() == dot + 5 && text.back() == 'Z') {
    for (size_t i = dot + 1; i < dot + 4; ++i) {
      if (text[i] < '0' || text[i] > '9') return 0;
      millis = millis * 10 + (text[i] - '0');
    }
    text = text.substr(0, dot) + "Z";
  }
  auto seconds = ParseIso8601Utc(text);
  return seconds ? *seconds + millis : 0;
}

// Each node's bar on one time axis, from the execution's start to its last node's end.
Json Timeline(const Json& record) {
  Json bars = Json::array();
  const Json& stats = record.contains("node_stats") ? record["node_stats"] : Json::array();
  if (!stats.is_array() || stats.empty()) return bars;
  int64_t start = Ms(record["started_at"]), end = start;
  for (const Json& s : stats) {
    int64_t from = Ms(s.value("started_at", Json()));
    if (from && (!start || from < start)) start = from;
    end = std::max(end, Ms(s.value("completed_at", Json())));
  }
  double span = std::max<int64_t>(1, end - start);
  int row = 0;
  for (const Json& s : stats) {
    int64_t from = Ms(s.value("started_at", Json())), to = Ms(s.value("completed_at", Json()));
    int x = from ? static_cast<int>((from - start) / span * kTimelineWidth) : 0;
    int w = from && to ? std::max(3, static_cast<int>((to - from) / span * kTimelineWidth)) : 3;
    Json bar = s;
    bar["x"] = 160 + x;
    bar["w"] = w;
    bar["y"] = 8 + row * 26;
    bar["ty"] = 8 + row * 26 + 14;
    bars.push_back(std::move(bar));
    ++row;
  }
  return bars;
}

HttpResponse ExecutionList(UiContext& ctx) {
  ExecutionListQuery query;
  if (auto id = ctx.Query("pipeline_id"); id && !id->empty()) query.pipeline_id = *id;
  if (auto status = ctx.Query("status"); status && !status->empty()) query.status = *status;
  query.window.limit = 100;
  if (auto offset = ctx.Query("offset"))
    query.window.offset = std::max(0, ParseInt(*offset, "offset"));
  // The time filter is the store's (REST's started_after / started_before), so the total and
  // the pager count only matching runs. "since" is a preset age; the two bounds come from
  // datetime-local inputs, read as UTC ("2026-12-01T09:30" gains ":00Z").
  std::string since = ctx.QueryOr("since", "");
  if (!since.empty()) {
    query.started_after_ms = NowMs() - int64_t{ParseInt(since, "since")} * 3600 * 1000;
  }
  std::string after = ctx.QueryOr("started_after", "");
  std::string before = ctx.QueryOr("started_before", "");
  auto bound = [](const std::string& text, const char* field) {
    std::string iso = text.ends_with('Z') ? text : text.size() == 16 ? text + ":00Z" : text + "Z";
    return ExecutionListQuery::ParseTimeBound(iso, field);
  };
  if (!after.empty()) {
    int64_t at = bound(after, "started_after");
    query.started_after_ms = std::max(query.started_after_ms.value_or(at), at);
  }
  if (!before.empty()) query.started_before_ms = bound(before, "started_before");
  Json listing = ctx.s.executions.List(ctx.principal, query);
  AddHrefs(listing["items"], "/ui/executions", "execution_id");
  // The pager keeps every filter: the next page of the SAME query.
  std::string older =
      "/ui/executions?offset=" + std::to_string(query.window.offset + query.window.limit);
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"pipeline_id", query.pipeline_id.value_or("")},
           {"status", query.status.value_or("")},
           {"since", since},
           {"started_after", after},
           {"started_before", before}}) {
    if (!value.empty()) older += "&" + name + "=" + EncodeSegment(value);
  }
  Json model{{"executions", listing["items"]},
             {"older_href", older},
             {"total", listing["total"]},
             {"has_more", listing["has_more"]},
             {"offset", query.window.offset},
             {"next_offset", query.window.offset + query.window.limit},
             {"filter",
              {{"pipeline_id", query.pipeline_id.value_or("")},
               {"status", query.status.value_or("")},
               {"since", since},
               {"started_after", after},
               {"started_before", before}}}};
  return ctx.Page("executions", std::move(model), "executions");
}

HttpResponse ExecutionDetail(UiContext& ctx, const std::string& id) {
  Json record = ctx.s.executions.Get(ctx.principal, id);
  Json model{{"execution", record},
             {"timeline", Timeline(record)},
             {"events", ctx.s.executions.Events(ctx.principal, id)},
             {"parameters_text", record.value("parameters", Json::object()).dump(2)},
             {"self", UiPath({"executions", id})},
             {"pipeline_href", UiPath({"pipelines", record.value("pipeline_id", "")})},
             {"csv_href", "/api/v1/executions/" + EncodeSegment(id) + "/result?format=csv"}};
  if (record.contains("error")) {
    Json error = record["error"];
    model["error_text"] = error.dump(2);
    // The root cause (spec §6.3): the last link of exception.caused_by, else the error itself.
    Json root = error;
    if (error.contains("exception") && error["exception"].is_object()) {
      const Json& chain = error["exception"].value("caused_by", Json::array());
      if (chain.is_array() && !chain.empty() && chain.back().is_object()) root = chain.back();
    }
    std::string node;
    if (error.contains("failed_node_id") && error["failed_node_id"].is_string()) {
      node = error["failed_node_id"].get<std::string>();
    }
    // A driver's SQLSTATE names the cause best; without one (SQLite), the catalogued code.
    std::string sqlstate =
        root.is_object() && root.contains("sqlstate") ? Cell(root["sqlstate"]) : "";
    model["root_cause"] = {
        {"code", !sqlstate.empty() ? "SQLSTATE " + sqlstate : Cell(error.value("code", Json()))},
        {"message", Cell(root.value("message", error.value("message", Json())))},
        {"node", node}};
  }
  if (record.contains("result")) {
    try {
      Json page = ctx.s.executions.GetResult(ctx.principal, id, 0, kPreviewRows, "json");
      Json columns = Json::array();
      for (const Json& c : page.value("schema", Json::array())) {
        columns.push_back({{"name", c.value("name", "")}, {"type", c.value("type", "")}});
      }
      Json rows = Json::array();
      for (const Json& row : page.value("rows", Json::array())) {
        Json cells = Json::array();
        if (row.is_array()) {
          for (const Json& v : row) cells.push_back(Cell(v));
        } else if (row.is_object()) {
          for (const Json& c : columns)
            cells.push_back(Cell(row.value(c["name"].get<std::string>(), Json())));
        }
        rows.push_back(std::move(cells));
      }
      model["result"] = {{"columns", columns},
                         {"rows", rows},
                         {"total_rows", page.value("total_rows", 0)},
                         {"has_more", page.value("has_more", false)}};
    } catch (const DomainError& e) {
      Json error = e.ToJson();
      error["correlation_id"] = ctx.http.correlation_id;
      model["result_error"] = std::move(error);  // expired: the standard error state, not a 500
    }
  }
  return ctx.Page("execution", std::move(model), "executions");
}

}  // namespace

std::optional<HttpResponse> ExecutionScreens(UiContext& ctx, const std::vector<std::string>& s) {
  if (s.empty() || s[0] != "executions") return std::nullopt;
  if (s.size() == 1 && !ctx.IsPost()) return ExecutionList(ctx);
  if (s.size() == 2 && !ctx.IsPost()) return ExecutionDetail(ctx, s[1]);
  if (s.size() == 3 && s[2] == "cancel" && ctx.IsPost()) {
    try {
      ctx.s.executions.Cancel(ctx.principal, s[1], ExecutionSurface::kHuman);
      return UiContext::Redirect(UiPath({"executions", s[1]}), "cancel_requested");
    } catch (const DomainError& refusal) {
      ctx.refusal = refusal;
      return ExecutionDetail(ctx, s[1]);
    }
  }
  return std::nullopt;
}

}  // namespace dp::ui
