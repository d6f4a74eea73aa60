#pragma once
// The server's named instruments over one MetricsRegistry (issue 18, observability.md §4 in
// Prometheus spelling): every label value is from a closed set — a route class, a method, a
// status, a catalog tool name, a node type, a datasource name — never an id or input text.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "datapipelines/metrics/metrics_registry.hpp"

namespace dp {

class ServerMetrics {
 public:
  explicit ServerMetrics(std::string_view version);

  MetricsRegistry& Registry() { return registry_; }

  void OnHttpRequest(std::string_view method, std::string_view path, int status, double seconds);
  void OnToolCall(std::string_view tool, std::string_view outcome, double seconds);
  void OnExecutionFinished(std::string_view status, double seconds, int64_t result_rows);
  void OnNodeFinished(std::string_view type, std::string_view status, int64_t rows_out,
                      bool staged);

  // The closed set an HTTP path is counted under: mcp, api, endpoint, ui, skill, health,
  // metrics or other.
  static std::string_view RouteClass(std::string_view path);
  // GET, POST, …; anything else (input text) is "other".
  static std::string_view MethodClass(std::string_view method);

 private:
  static constexpr std::array<std::string_view, 8> kRoutes = {
      "mcp", "api", "endpoint", "ui", "skill", "health", "metrics", "other"};
  static constexpr std::array<std::string_view, 8> kMethods = {
      "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "other"};
  static constexpr int kFirstStatus = 100;
  static constexpr int kStatuses = 500;  // 100–599
  static std::size_t RouteIndex(std::string_view path);
  static std::size_t MethodIndex(std::string_view method);

  // The per-request instruments, looked up in the registry (a lock and a label string) the
  // first time a (route, method, status) is seen and read from these slots ever after.
  MetricCounter& RequestCounter(std::size_t route, std::size_t method, int status);
  MetricHistogram& RouteDuration(std::size_t route);

  MetricsRegistry registry_;
  std::unique_ptr<std::atomic<MetricCounter*>[]> request_counters_;  // [route][method][status]
  std::array<std::atomic<MetricHistogram*>, kRoutes.size()> route_durations_{};
};

}  // namespace dp
