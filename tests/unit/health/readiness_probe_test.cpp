#include "datapipelines/health/readiness_probe.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
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

// A frozen dependency answers nothing: the probe reports it DOWN at its deadline, and a second
// probe while it still hangs neither waits longer nor starts another check of it.
TEST(ReadinessProbeTest, AHungComponentIsDownAtTheDeadlineAndIsNotAskedTwice) {
  std::atomic<int> started{0};
  std::atomic<bool> release{false};
  ReadinessProbe probe(std::chrono::milliseconds(100));
  probe.Add("metadata", [] { return true; });
  probe.Add("results", [&] {
    ++started;
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return true;
  });
  for (int round = 0; round < 2; ++round) {
    const auto begin = std::chrono::steady_clock::now();
    ReadinessProbe::Report report = probe.Run();
    EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(1));
    EXPECT_FALSE(report.ready);
    EXPECT_EQ(report.body["components"], (Json{{"metadata", "UP"}, {"results", "DOWN"}}));
    EXPECT_TRUE(report.body["latency_ms"]["results"].is_null());
  }
  EXPECT_EQ(started.load(), 1);
  release = true;
  // Once it answers again, the next probe sees it up.
  for (int tries = 0; tries < 50 && !probe.Run().ready; ++tries) {
  }
  EXPECT_TRUE(probe.Run().ready);
}

}  // namespace
}  // namespace dp
