#include "datapipelines/health/readiness_probe.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>

namespace dp {
namespace {

TEST(ReadinessProbeTest, ReadyWhenEveryComponentAnswersWithEachLatency) {
  ReadinessProbe probe;
  probe.Add("metadata", [] { return true; });
  probe.Add("results", [] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return true;
  });
  ReadinessProbe::Report report = probe.Run();
  EXPECT_TRUE(report.ready);
  EXPECT_EQ(report.body["status"], "UP");
  EXPECT_EQ(report.body["components"], (Json{{"metadata", "UP"}, {"results", "UP"}}));
  EXPECT_GE(report.body["latency_ms"]["results"].get<double>(), 5.0);
  EXPECT_GE(report.body["latency_ms"]["metadata"].get<double>(), 0.0);
}

TEST(ReadinessProbeTest, OneDownOrThrowingComponentMakesItNotReadyAndNamesIt) {
  ReadinessProbe probe;
  probe.Add("metadata", [] { return true; });
  probe.Add("results", [] { return false; });
  probe.Add("rate_limiter", []() -> bool { throw std::runtime_error("redis gone"); });
  ReadinessProbe::Report report = probe.Run();
  EXPECT_FALSE(report.ready);
  EXPECT_EQ(report.body["status"], "DOWN");
  EXPECT_EQ(report.body["components"],
            (Json{{"metadata", "UP"}, {"results", "DOWN"}, {"rate_limiter", "DOWN"}}));
  // The exception's text never reaches the unauthenticated body.
  EXPECT_EQ(report.body.dump().find("redis gone"), std::string::npos);
  EXPECT_EQ(report.body["latency_ms"].size(), 3u);
}

}  // namespace
}  // namespace dp
