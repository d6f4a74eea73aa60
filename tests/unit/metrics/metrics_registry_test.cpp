#include "datapipelines/metrics/metrics_registry.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "datapipelines/metrics/server_metrics.hpp"

namespace dp {
namespace {

bool Has(const std::string& text, const std::string& line) {
  return text.find(line + "\n") != std::string::npos;
}

TEST(MetricsRegistryTest, RendersCountersWithHelpTypeAndEscapedLabels) {
  MetricsRegistry registry;
  registry.Counter("dp_things_total", "Things.", {{"kind", "a\"b\\c\nd"}}).Add(2);
  registry.Counter("dp_things_total", "Things.", {{"kind", "plain"}}).Add();
  std::string text = registry.RenderPrometheus();
  EXPECT_TRUE(Has(text, "# HELP dp_things_total Things.")) << text;
  EXPECT_TRUE(Has(text, "# TYPE dp_things_total counter")) << text;
  EXPECT_TRUE(Has(text, R"(dp_things_total{kind="a\"b\\c\nd"} 2)")) << text;
  EXPECT_TRUE(Has(text, R"(dp_things_total{kind="plain"} 1)")) << text;
}

TEST(MetricsRegistryTest, HistogramBucketsAreCumulativeWithInfSumAndCount) {
  MetricsRegistry registry;
  auto& histogram = registry.Histogram("dp_wait_seconds", "Waits.", {}, {0.1, 1});
  for (double v : {0.05, 0.1, 0.5, 5.0}) histogram.Observe(v);
  std::string text = registry.RenderPrometheus();
  EXPECT_TRUE(Has(text, "# TYPE dp_wait_seconds histogram")) << text;
  EXPECT_TRUE(Has(text, R"(dp_wait_seconds_bucket{le="0.10000000000000001"} 2)") ||
              Has(text, R"(dp_wait_seconds_bucket{le="0.1"} 2)"))
      << text;
  EXPECT_TRUE(Has(text, R"(dp_wait_seconds_bucket{le="1"} 3)")) << text;
  EXPECT_TRUE(Has(text, R"(dp_wait_seconds_bucket{le="+Inf"} 4)")) << text;
  EXPECT_TRUE(Has(text, "dp_wait_seconds_sum 5.6500000000000004") ||
              Has(text, "dp_wait_seconds_sum 5.65"))
      << text;
  EXPECT_TRUE(Has(text, "dp_wait_seconds_count 4")) << text;
}

TEST(MetricsRegistryTest, GaugeCollectorsAreReadAtEveryScrape) {
  MetricsRegistry registry;
  int value = 1;
  registry.AddGaugeCollector([&](std::vector<GaugeSample>& out) {
    out.push_back({"dp_level", "Level.", {{"pool", "x"}}, static_cast<double>(value)});
    out.push_back({"dp_failures_total", "Failures.", {}, 7, "counter"});
  });
  EXPECT_TRUE(Has(registry.RenderPrometheus(), R"(dp_level{pool="x"} 1)"));
  value = 3;
  std::string text = registry.RenderPrometheus();
  EXPECT_TRUE(Has(text, R"(dp_level{pool="x"} 3)")) << text;
  EXPECT_TRUE(Has(text, "# TYPE dp_level gauge")) << text;
  EXPECT_TRUE(Has(text, "# TYPE dp_failures_total counter")) << text;
}

TEST(MetricsRegistryTest, ConcurrentAddsAreNotLost) {
  MetricsRegistry registry;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) registry.Counter("dp_n_total", "N.", {}).Add();
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_DOUBLE_EQ(registry.Counter("dp_n_total", "N.", {}).Value(), 40000);
}

// Label values are closed sets: a path or a method from the wire never becomes a label.
TEST(ServerMetricsTest, RoutesAndMethodsCollapseIntoClosedSets) {
  struct Case {
    const char* path;
    const char* route;
  };
  for (const Case& c : std::vector<Case>{{"/mcp", "mcp"},
                                         {"/api/v1/pipelines/3f1c", "api"},
                                         {"/api/x/sales/eu", "endpoint"},
                                         {"/ui/pipelines", "ui"},
                                         {"/", "ui"},
                                         {"/skill.md", "skill"},
                                         {"/skill/references/tools.md", "skill"},
                                         {"/healthz", "health"},
                                         {"/metrics", "metrics"},
                                         {"/api/v1x", "other"},
                                         {"/../etc/passwd", "other"}}) {
    EXPECT_EQ(ServerMetrics::RouteClass(c.path), c.route) << c.path;
  }
  EXPECT_EQ(ServerMetrics::MethodClass("GET"), "GET");
  EXPECT_EQ(ServerMetrics::MethodClass("BREW"), "other");
  ServerMetrics metrics("9.9.9");
  metrics.OnHttpRequest("BREW", "/api/v1/pipelines/3f1c-secret-id", 429, 0.01);
  std::string text = metrics.Registry().RenderPrometheus();
  EXPECT_EQ(text.find("3f1c"), std::string::npos) << text;
  EXPECT_TRUE(
      Has(text, R"(datapipelines_http_requests_total{route="api",method="other",status="429"} 1)"))
      << text;
  EXPECT_TRUE(Has(text, R"(datapipelines_rate_limit_refusals_total{route="api"} 1)")) << text;
  EXPECT_TRUE(Has(text, R"(datapipelines_build_info{version="9.9.9"} 1)")) << text;
}

TEST(ServerMetricsTest, CachedInstrumentsCountEveryRequestFromEveryThread) {
  ServerMetrics metrics("1");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) metrics.OnHttpRequest("POST", "/mcp", 200, 0.001);
    });
  }
  for (auto& thread : threads) thread.join();
  metrics.OnHttpRequest("GET", "/healthz", 999, 0.001);  // outside 100–599: not cached, counted
  std::string text = metrics.Registry().RenderPrometheus();
  EXPECT_TRUE(
      Has(text, R"(datapipelines_http_requests_total{route="mcp",method="POST",status="200"} 4000)"))
      << text;
  EXPECT_TRUE(Has(text, R"(datapipelines_http_request_duration_seconds_count{route="mcp"} 4000)"))
      << text;
  EXPECT_TRUE(
      Has(text, R"(datapipelines_http_requests_total{route="health",method="GET",status="999"} 1)"))
      << text;
}

}  // namespace
}  // namespace dp
