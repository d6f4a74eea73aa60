#include "datapipelines/metrics/server_metrics.hpp"

#include <array>

namespace dp {

ServerMetrics::ServerMetrics(std::string_view version)
    : request_counters_(std::make_unique<std::atomic<MetricCounter*>[]>(
          kRoutes.size() * kMethods.size() * kStatuses)) {
  registry_.AddGaugeCollector([version = std::string(version)](std::vector<GaugeSample>& out) {
    out.push_back(
        {"datapipelines_build_info", "The running build (value 1).", {{"version", version}}, 1});
  });
}

namespace {

// A slot filled from the registry once. The registry hands every caller the same instrument
// for one key, so two threads filling a slot at once store the same pointer.
template <typename Instrument, typename Find>
Instrument& Cached(std::atomic<Instrument*>& slot, Find find) {
  Instrument* instrument = slot.load(std::memory_order_acquire);
  if (instrument == nullptr) {
    instrument = &find();
    slot.store(instrument, std::memory_order_release);
  }
  return *instrument;
}

}  // namespace

std::size_t ServerMetrics::RouteIndex(std::string_view path) {
  auto under = [path](std::string_view prefix) {
    return path == prefix || (path.starts_with(prefix) && path[prefix.size()] == '/');
  };
  if (path == "/mcp") return 0;
  if (under("/api/v1")) return 1;
  if (under("/api/x")) return 2;
  if (path == "/" || under("/ui")) return 3;
  if (path == "/skill.md" || under("/skill")) return 4;
  if (path == "/healthz" || path == "/readyz") return 5;
  if (path == "/metrics") return 6;
  return 7;
}

std::size_t ServerMetrics::MethodIndex(std::string_view method) {
  for (std::size_t i = 0; i + 1 < kMethods.size(); ++i) {
    if (method == kMethods[i]) return i;
  }
  return kMethods.size() - 1;
}

std::string_view ServerMetrics::RouteClass(std::string_view path) {
  return kRoutes[RouteIndex(path)];
}

std::string_view ServerMetrics::MethodClass(std::string_view method) {
  return kMethods[MethodIndex(method)];
}

MetricCounter& ServerMetrics::RequestCounter(std::size_t route, std::size_t method, int status) {
  auto find = [&]() -> MetricCounter& {
    return registry_.Counter("datapipelines_http_requests_total",
                             "HTTP requests by route class and status.",
                             {{"route", std::string(kRoutes[route])},
                              {"method", std::string(kMethods[method])},
                              {"status", std::to_string(status)}});
  };
  if (status < kFirstStatus || status >= kFirstStatus + kStatuses) return find();
  const std::size_t slot = (route * kMethods.size() + method) * kStatuses + (status - kFirstStatus);
  return Cached(request_counters_[slot], find);
}

MetricHistogram& ServerMetrics::RouteDuration(std::size_t route) {
  return Cached(route_durations_[route], [&]() -> MetricHistogram& {
    return registry_.Histogram("datapipelines_http_request_duration_seconds",
                               "HTTP request duration at the server, by route class.",
                               {{"route", std::string(kRoutes[route])}});
  });
}

void ServerMetrics::OnHttpRequest(std::string_view method, std::string_view path, int status,
                                  double seconds) {
  const std::size_t route = RouteIndex(path);
  RequestCounter(route, MethodIndex(method), status).Add();
  RouteDuration(route).Observe(seconds);
  if (status == 429) {
    registry_
        .Counter("datapipelines_rate_limit_refusals_total",
                 "Requests refused by a rate limit (429), by route class.",
                 {{"route", std::string(kRoutes[route])}})
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
