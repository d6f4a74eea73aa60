#include "datapipelines/metrics/server_metrics.hpp"

#include <array>

namespace dp {

ServerMetrics::ServerMetrics(std::string_view version) {
  registry_.AddGaugeCollector([version = std::string(version)](std::vector<GaugeSample>& out) {
    out.push_back(
        {"datapipelines_build_info", "The running build (value 1).", {{"version", version}}, 1});
  });
}

std::string_view ServerMetrics::RouteClass(std::string_view path) {
  auto under = [path](std::string_view prefix) {
    return path == prefix || (path.starts_with(prefix) && path[prefix.size()] == '/');
  };
  if (path == "/mcp") return "mcp";
  if (under("/api/v1")) return "api";
  if (under("/api/x")) return "endpoint";
  if (path == "/" || under("/ui")) return "ui";
  if (path == "/skill.md" || under("/skill")) return "skill";
  if (path == "/healthz" || path == "/readyz") return "health";
  if (path == "/metrics") return "metrics";
  return "other";
}

std::string_view ServerMetrics::MethodClass(std::string_view method) {
  static constexpr std::array<std::string_view, 7> kMethods = {"GET",    "HEAD",  "POST",   "PUT",
                                                               "DELETE", "PATCH", "OPTIONS"};
  for (std::string_view known : kMethods) {
    if (method == known) return known;
  }
  return "other";
}

void ServerMetrics::OnHttpRequest(std::string_view method, std::string_view path, int status,
                                  double seconds) {
  const std::string route(RouteClass(path));
  const std::string verb(MethodClass(method));
  const std::string code = std::to_string(status);
  registry_
      .Counter("datapipelines_http_requests_total", "HTTP requests by route class and status.",
               {{"route", route}, {"method", verb}, {"status", code}})
      .Add();
  registry_
      .Histogram("datapipelines_http_request_duration_seconds",
                 "HTTP request duration at the server, by route class.", {{"route", route}})
      .Observe(seconds);
  if (status == 429) {
    registry_
        .Counter("datapipelines_rate_limit_refusals_total",
                 "Requests refused by a rate limit (429), by route class.", {{"route", route}})
        .Add();
  }
}

void ServerMetrics::OnToolCall(std::string_view tool, std::string_view outcome, double seconds) {
  const std::string name(tool);
  registry_
      .Counter("datapipelines_mcp_tool_calls_total", "MCP tool calls by tool and outcome.",
               {{"tool_name", name}, {"status", std::string(outcome)}})
      .Add();
  registry_
      .Histogram("datapipelines_mcp_tool_duration_seconds", "MCP tool call duration, by tool.",
                 {{"tool_name", name}})
      .Observe(seconds);
}

void ServerMetrics::OnExecutionFinished(std::string_view status, double seconds,
                                        int64_t result_rows) {
  registry_
      .Counter("datapipelines_executions_total", "Executions that ended, by status.",
               {{"status", std::string(status)}})
      .Add();
  registry_
      .Histogram("datapipelines_executions_duration_seconds", "Execution wall-clock duration.", {})
      .Observe(seconds);
  if (result_rows > 0) {
    registry_
        .Counter("datapipelines_result_rows_delivered_total",
                 "Rows of caller results stored for delivery.", {})
        .Add(static_cast<double>(result_rows));
  }
}

void ServerMetrics::OnNodeFinished(std::string_view type, std::string_view status, int64_t rows_out,
                                   bool staged) {
  registry_
      .Counter("datapipelines_nodes_total", "Pipeline nodes that ended, by type and status.",
               {{"type", std::string(type)}, {"status", std::string(status)}})
      .Add();
  if (rows_out <= 0) return;
  registry_
      .Counter("datapipelines_nodes_rows_out_total", "Rows emitted by nodes, by node type.",
               {{"type", std::string(type)}})
      .Add(static_cast<double>(rows_out));
  if (staged) {
    registry_.Counter("datapipelines_staging_rows_total", "Rows staged into tempdb.", {})
        .Add(static_cast<double>(rows_out));
  }
}

}  // namespace dp
