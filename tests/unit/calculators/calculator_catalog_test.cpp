#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

#include "calculators/calculator_kinds.hpp"
#include "calculators/time_zone.hpp"
#include "datapipelines/calculators/calculator_catalog.hpp"
#include "datapipelines/calculators/calculator_context.hpp"
#include "datapipelines/calculators/calculator_evaluator.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

TEST(CalculatorCatalogTest, EveryKindIsImplementedAndEveryImplementationCatalogued) {
  std::set<std::string> catalogued;
  for (const auto& kind : AllCalculators()) {
    EXPECT_TRUE(catalogued.insert(kind.kind).second) << "duplicate " << kind.kind;
    EXPECT_TRUE(calc::CalculatorImplementations().count(kind.kind)) << kind.kind;
  }
  for (const auto& [name, function] : calc::CalculatorImplementations()) {
    EXPECT_TRUE(catalogued.count(name)) << name;
  }
  EXPECT_EQ(CalculatorKindNames().size(), AllCalculators().size());
  EXPECT_EQ(FindCalculator("no_such_kind"), nullptr);
}

TEST(CalculatorCatalogTest, EntriesAreWellFormed) {
  for (const auto& kind : AllCalculators()) {
    SCOPED_TRACE(kind.kind);
    EXPECT_FALSE(kind.display_name.empty());
    EXPECT_FALSE(kind.description.empty());
    EXPECT_FALSE(kind.phrases.empty());
    EXPECT_NE(kind.multi_output(), !kind.output_type.empty());
    for (const auto& input : kind.inputs) {
      EXPECT_TRUE(input.optional || input.default_value.is_null()) << input.name;
      if (!input.default_value.is_null()) {
        EXPECT_TRUE(LiteralMatchesType(input.default_value, input.type, input.list)) << input.name;
      }
    }
    // Every worked example's literals fit their declared inputs.
    for (const auto& [name, value] : kind.example_inputs.items()) {
      const CalculatorInput* input = kind.FindInput(name);
      ASSERT_NE(input, nullptr) << name;
      if (value.is_string() && value.get<std::string>().rfind('$', 0) == 0) continue;
      EXPECT_TRUE(input->type == "ANY" || LiteralMatchesType(value, input->type, input->list))
          << name;
    }
  }
}

TEST(CalculatorCatalogTest, JsonShapeFollowsTheSpec) {
  const Json single = FindCalculator("add_business_days")->ToJson();
  EXPECT_EQ(single["output"], "DATE");
  EXPECT_FALSE(single.contains("outputs"));
  for (const char* key : {"kind", "display_name", "description", "phrases", "inputs", "example"}) {
    EXPECT_TRUE(single.contains(key)) << key;
  }
  const Json& inputs = single["inputs"];
  EXPECT_FALSE(inputs[0].contains("list"));
  EXPECT_FALSE(inputs[0].contains("default"));
  EXPECT_EQ(inputs[0]["required"], true);
  EXPECT_EQ(inputs[2]["name"], "weekend_days");
  EXPECT_EQ(inputs[2]["list"], true);
  EXPECT_EQ(inputs[2]["default"], Json::array({"saturday", "sunday"}));
  EXPECT_EQ(single["example"]["output"], "2026-08-18");

  const Json multi = FindCalculator("period_bounds")->ToJson();
  EXPECT_TRUE(multi["output"].is_null());
  ASSERT_EQ(multi["outputs"].size(), 2u);
  EXPECT_EQ(multi["outputs"][0]["name"], "start");
  EXPECT_EQ(multi["outputs"][0]["type"], "DATE");
  EXPECT_TRUE(multi["outputs"][0].contains("description"));

  // An optional input without a default carries no default key.
  const Json map = FindCalculator("map")->ToJson();
  EXPECT_FALSE(map["inputs"][3].contains("default"));
  EXPECT_EQ(map["inputs"][3]["required"], false);
  EXPECT_EQ(FindCalculator("coalesce")->ToJson()["output"], "ANY");
}

TEST(CalculatorCatalogTest, LiteralMatchesTypeFollowsTheWireEncoding) {
  EXPECT_TRUE(LiteralMatchesType("2028-02-29", "DATE", false));
  EXPECT_FALSE(LiteralMatchesType("2026-02-29", "DATE", false));
  EXPECT_FALSE(LiteralMatchesType("2026-8-14", "DATE", false));
  EXPECT_FALSE(LiteralMatchesType("2026-08-14T00:00:00Z", "DATE", false));
  EXPECT_FALSE(LiteralMatchesType(20260814, "DATE", false));
  EXPECT_TRUE(LiteralMatchesType(5, "INTEGER", false));
  EXPECT_TRUE(LiteralMatchesType(-5, "INTEGER", false));
  EXPECT_FALSE(LiteralMatchesType(5.5, "INTEGER", false));
  EXPECT_FALSE(LiteralMatchesType("5", "INTEGER", false));
  EXPECT_TRUE(LiteralMatchesType(5, "DECIMAL", false));
  EXPECT_TRUE(LiteralMatchesType(2.345, "DECIMAL", false));
  EXPECT_FALSE(LiteralMatchesType("2.345", "DECIMAL", false));
  EXPECT_TRUE(LiteralMatchesType("quarter", "STRING", false));
  EXPECT_FALSE(LiteralMatchesType(3, "STRING", false));
  EXPECT_TRUE(LiteralMatchesType(true, "BOOLEAN", false));
  EXPECT_TRUE(LiteralMatchesType("2026-06-01T12:00:00Z", "TIMESTAMP", false));
  EXPECT_TRUE(LiteralMatchesType("2026-06-01T12:00:00.5+02:00", "TIMESTAMP", false));
  EXPECT_FALSE(LiteralMatchesType("2026-06-01T12:00:00", "TIMESTAMP", false));
  EXPECT_FALSE(LiteralMatchesType("2026-06-01", "TIMESTAMP", false));
  EXPECT_TRUE(LiteralMatchesType(nullptr, "ANY", false));
  EXPECT_TRUE(LiteralMatchesType("GB", "ANY", false));
  EXPECT_FALSE(LiteralMatchesType(Json::object(), "ANY", false));
  EXPECT_FALSE(LiteralMatchesType(Json::array(), "ANY", false));
  EXPECT_TRUE(LiteralMatchesType(Json::array({"2026-08-17"}), "DATE", true));
  EXPECT_TRUE(LiteralMatchesType(Json::array(), "DATE", true));
  EXPECT_FALSE(LiteralMatchesType(Json::array({"2026-08-17", "x"}), "DATE", true));
  EXPECT_FALSE(LiteralMatchesType("2026-08-17", "DATE", true));
  EXPECT_TRUE(LiteralMatchesType(Json::array({"GB", 1, nullptr}), "ANY", true));
  EXPECT_FALSE(LiteralMatchesType(Json::array({Json::array()}), "ANY", true));
  EXPECT_FALSE(LiteralMatchesType("x", "NOT_A_TYPE", false));
}

TEST(CalculatorCatalogTest, FailureCarriesKindInputAndReason) {
  try {
    EvaluateCalculator(*FindCalculator("percent_change"), {{"current", 125}, {"previous", 0}},
                       CalculatorEnvironment{});
    FAIL() << "expected a failure";
  } catch (const DomainError& error) {
    EXPECT_EQ(std::string(error.code().code), "pipeline.node.calculator_failed");
    EXPECT_EQ(error.details()["kind"], "percent_change");
    EXPECT_EQ(error.details()["input"], "previous");
    EXPECT_TRUE(error.details()["reason"].is_string());
    EXPECT_EQ(error.details().size(), 3u);
  }
}

TEST(CalculatorContextTest, BuiltInKeysAndTypes) {
  ASSERT_EQ(OrgContextKeys().size(), 5u);
  ASSERT_EQ(PlatformContextKeys().size(), 3u);
  EXPECT_EQ(BuiltInContextKeyType("org_fiscal_start_date"), "STRING");
  EXPECT_EQ(BuiltInContextKeyType("current_date"), "DATE");
  EXPECT_EQ(BuiltInContextKeyType("current_timestamp"), "TIMESTAMP");
  EXPECT_EQ(BuiltInContextKeyType("execution_id"), "STRING");
  EXPECT_EQ(BuiltInContextKeyType("run_date"), "");
  const Json values = BuiltInContextValues(CalculatorEnvironment{1'780'000'000'123, {}}, "e");
  EXPECT_EQ(values["current_timestamp"], "2026-05-28T20:26:40.123Z");
  EXPECT_EQ(values["org_currency_symbol"], "$");
  EXPECT_EQ(values.size(), 8u);
}

TEST(CalculatorContextTest, OrgSettingsViolationsReportTogether) {
  EXPECT_TRUE(OrgSettingsViolations(OrgSettings{}).empty());
  OrgSettings leap;
  leap.fiscal_start_date = "02-29";
  leap.timezone = "Australia/Sydney";
  leap.week_start = "sunday";
  EXPECT_TRUE(OrgSettingsViolations(leap).empty());

  OrgSettings bad{" ", "", "SEP-15", "tuesday", "+02:00"};
  const auto violations = OrgSettingsViolations(bad);
  ASSERT_EQ(violations.size(), 5u);
  EXPECT_NE(violations[0].find("fiscal-start-date"), std::string::npos);
  EXPECT_NE(violations[0].find("MM-DD"), std::string::npos);
  EXPECT_NE(violations[1].find("week-start"), std::string::npos);
  EXPECT_NE(violations[2].find("fixed offset"), std::string::npos);
  EXPECT_NE(violations[3].find("currency.name"), std::string::npos);
  EXPECT_NE(violations[4].find("currency.symbol"), std::string::npos);

  for (const char* day : {"02-30", "13-01", "00-10", "4-6", "04/06"}) {
    OrgSettings settings;
    settings.fiscal_start_date = day;
    EXPECT_EQ(OrgSettingsViolations(settings).size(), 1u) << day;
  }
  OrgSettings unknown_zone;
  unknown_zone.timezone = "Europe/Atlantis";
  EXPECT_EQ(OrgSettingsViolations(unknown_zone).size(), 1u);
}

TEST(TimeZoneTest, OffsetsAndRefusals) {
  auto berlin = calc::TimeZone::Find("Europe/Berlin");
  ASSERT_NE(berlin, nullptr);
  EXPECT_EQ(berlin->OffsetAt(1'780'000'000), 7200);  // 2026-05-28, CEST
  EXPECT_EQ(berlin->OffsetAt(1'768'000'000), 3600);  // 2026-01-09, CET
  EXPECT_EQ(calc::TimeZone::Find("UTC")->OffsetAt(0), 0);
  for (const char* name : {"+02:00", "-05:00", "UTC+2", "GMT-05:00", "", "/etc/passwd",
                           "../etc/passwd", "zone.tab", "posixrules", "Europe/Atlantis"}) {
    EXPECT_EQ(calc::TimeZone::Find(name), nullptr) << name;
  }
  EXPECT_NE(calc::TimeZone::Find("Etc/GMT+2"), nullptr);  // a tz database id, not an offset
}

TEST(TimeZoneTest, LookupIsThreadSafeAndCached) {
  std::vector<std::thread> threads;
  std::vector<const calc::TimeZone*> seen(8);
  for (size_t i = 0; i < seen.size(); ++i) {
    threads.emplace_back([&seen, i] { seen[i] = calc::TimeZone::Find("America/New_York").get(); });
  }
  for (auto& thread : threads) thread.join();
  for (const auto* zone : seen) EXPECT_EQ(zone, seen[0]);
  EXPECT_NE(seen[0], nullptr);
}

}  // namespace
}  // namespace dp
