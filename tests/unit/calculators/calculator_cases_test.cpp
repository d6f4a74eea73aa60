// Table-driven evaluation cases: tests/calculator_cases/cases.json holds kind + inputs ->
// expected value, or -> expected failure {input, reason_contains}; and current_date cases
// (an execution start instant + org timezone -> today's date there).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "calculators/timestamp.hpp"
#include "datapipelines/calculators/calculator_context.hpp"
#include "datapipelines/calculators/calculator_evaluator.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

const Json& Cases() {
  static const Json kCases = [] {
    std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/calculator_cases/cases.json");
    return Json::parse(in);
  }();
  return kCases;
}

// DECIMAL answers compare by value (25.00 == 25), everything else exactly.
bool SameAnswer(const Json& actual, const Json& expected) {
  if (actual.is_number() && expected.is_number()) {
    return actual.get<double>() == expected.get<double>();
  }
  return actual == expected;
}

TEST(CalculatorCasesTest, EveryCaseEvaluatesAsRecorded) {
  const CalculatorEnvironment env;
  ASSERT_GT(Cases()["cases"].size(), 100u);
  for (const Json& item : Cases()["cases"]) {
    const std::string kind = item["kind"];
    SCOPED_TRACE(kind + " " + item["inputs"].dump() + " " + item.value("note", ""));
    const CalculatorKind* entry = FindCalculator(kind);
    ASSERT_NE(entry, nullptr);
    if (item.contains("expect")) {
      try {
        const Json actual = EvaluateCalculator(*entry, item["inputs"], env);
        EXPECT_TRUE(SameAnswer(actual, item["expect"]))
            << "got " << actual.dump() << ", expected " << item["expect"].dump();
      } catch (const DomainError& error) {
        ADD_FAILURE() << "unexpected failure: " << error.what();
      }
      continue;
    }
    const Json& expected = item["error"];
    try {
      const Json actual = EvaluateCalculator(*entry, item["inputs"], env);
      ADD_FAILURE() << "expected a failure, got " << actual.dump();
    } catch (const DomainError& error) {
      EXPECT_EQ(error.code().code, errc::kNodeCalculatorFailed.code);
      EXPECT_EQ(error.details()["kind"], kind);
      EXPECT_EQ(error.details()["input"], expected["input"]) << error.what();
      const std::string reason = error.details()["reason"];
      EXPECT_NE(reason.find(expected["reason_contains"].get<std::string>()), std::string::npos)
          << "reason: " << reason;
    }
  }
}

TEST(CalculatorCasesTest, CurrentDateIsTodayInTheOrgTimezone) {
  for (const Json& item : Cases()["current_date_cases"]) {
    SCOPED_TRACE(item.dump());
    const auto instant = calc::ParseTimestamp(item["now"].get<std::string>());
    ASSERT_TRUE(instant.has_value());
    CalculatorEnvironment env;
    env.now_ms = instant->epoch_seconds * 1000;
    env.org.timezone = item["timezone"];
    const Json values = BuiltInContextValues(env, "exec-1");
    EXPECT_EQ(values["current_date"], item["current_date"]);
    EXPECT_EQ(values["current_timestamp"], item["now"]);
    EXPECT_EQ(values["org_timezone"], item["timezone"]);
    EXPECT_EQ(values["execution_id"], "exec-1");
  }
}

// Every kind in the catalog is covered by at least one success case and the table is not
// silently skipping a kind.
TEST(CalculatorCasesTest, EveryKindHasCases) {
  for (const auto& kind : AllCalculators()) {
    bool covered = false;
    for (const Json& item : Cases()["cases"]) {
      covered = covered || (item["kind"] == kind.kind && item.contains("expect"));
    }
    EXPECT_TRUE(covered) << kind.kind;
  }
}

}  // namespace
}  // namespace dp
