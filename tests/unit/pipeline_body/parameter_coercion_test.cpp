// §6.3 strict coercion, table-driven: each row is (type, precision, scale, JSON value, ok?).
#include <gtest/gtest.h>

#include <optional>

#include "datapipelines/pipeline/parameter_coercion.hpp"
#include "datapipelines/pipeline/pipeline_body_parser.hpp"

namespace dp {
namespace {

struct CoercionRow {
  const char* type;
  std::optional<int> precision;
  std::optional<int> scale;
  const char* value_json;
  bool accepted;
};

constexpr std::nullopt_t kNone = std::nullopt;

const CoercionRow kRows[] = {
    {"INTEGER", kNone, kNone, "42", true},
    {"INTEGER", kNone, kNone, "-2147483648", true},
    {"INTEGER", kNone, kNone, "2147483647", true},
    {"INTEGER", kNone, kNone, "2147483648", false},
    {"INTEGER", kNone, kNone, "-2147483649", false},
    {"INTEGER", kNone, kNone, "\"42\"", false},
    {"INTEGER", kNone, kNone, "4.5", false},
    {"INTEGER", kNone, kNone, "true", false},
    {"BIGINTEGER", kNone, kNone, "\"9223372036854775807\"", true},
    {"BIGINTEGER", kNone, kNone, "\"-9223372036854775808\"", true},
    {"BIGINTEGER", kNone, kNone, "\"+12\"", true},
    {"BIGINTEGER", kNone, kNone, "\"9223372036854775808\"", false},
    {"BIGINTEGER", kNone, kNone, "12", false},
    {"BIGINTEGER", kNone, kNone, "\"1e5\"", false},
    {"BIGINTEGER", kNone, kNone, "\"\"", false},
    {"DECIMAL", 5, 2, "123.45", true},
    {"DECIMAL", 5, 2, "-999.99", true},
    {"DECIMAL", 5, 2, "7", true},
    {"DECIMAL", 5, 2, "1.5e2", true},
    {"DECIMAL", 5, 2, "1.234", false},
    {"DECIMAL", 5, 2, "1234.5", false},
    {"DECIMAL", 5, 2, "\"1.5\"", false},
    {"DECIMAL", 15, kNone, "3.14159", true},
    {"DECIMAL", 15, kNone, "1e-7", true},
    {"BIGDECIMAL", kNone, kNone, "\"-123456789012345678901234.5678\"", true},
    {"BIGDECIMAL", 20, 4, "\"12345.60\"", true},
    {"BIGDECIMAL", 20, 4, "\"1.23456\"", false},
    {"BIGDECIMAL", 6, 2, "\"12345.6\"", false},
    {"BIGDECIMAL", kNone, kNone, "\"1e10\"", false},
    {"BIGDECIMAL", kNone, kNone, "\"1.\"", false},
    {"BIGDECIMAL", kNone, kNone, "1.5", false},
    {"BOOLEAN", kNone, kNone, "false", true},
    {"BOOLEAN", kNone, kNone, "0", false},
    {"BOOLEAN", kNone, kNone, "\"true\"", false},
    {"STRING", kNone, kNone, "\"\"", true},
    {"STRING", kNone, kNone, "5", false},
    {"BINARY", kNone, kNone, "\"aGVsbG8=\"", true},
    {"BINARY", kNone, kNone, "\"aGk=\"", true},
    {"BINARY", kNone, kNone, "\"\"", true},
    {"BINARY", kNone, kNone, "\"aGVsbG8\"", false},
    {"BINARY", kNone, kNone, "\"aG-_bG8=\"", false},
    {"BINARY", kNone, kNone, "\"a===\"", false},
    {"DATE", kNone, kNone, "\"2024-02-29\"", true},
    {"DATE", kNone, kNone, "\"2023-02-29\"", false},
    {"DATE", kNone, kNone, "\"2026-04-31\"", false},
    {"DATE", kNone, kNone, "\"2026-8-5\"", false},
    {"DATE", kNone, kNone, "\"2026-08-05T00:00:00Z\"", false},
    {"TIME", kNone, kNone, "\"14:30:00\"", true},
    {"TIME", kNone, kNone, "\"14:30:00.123456\"", true},
    {"TIME", kNone, kNone, "\"14:30:00.1234567\"", false},
    {"TIME", kNone, kNone, "\"24:00:00\"", false},
    {"TIME", kNone, kNone, "\"14:30\"", false},
    {"TIME", kNone, kNone, "\"14:30:00.\"", false},
    {"TIMESTAMP", kNone, kNone, "\"2026-08-05T19:30:00Z\"", true},
    {"TIMESTAMP", kNone, kNone, "\"2026-08-05T19:30:00.123456Z\"", true},
    {"TIMESTAMP", kNone, kNone, "\"2026-08-05T19:30:00-07:00\"", true},
    {"TIMESTAMP", kNone, kNone, "\"2026-08-05T19:30:00\"", false},
    {"TIMESTAMP", kNone, kNone, "\"2026-08-05 19:30:00Z\"", false},
    {"TIMESTAMP", kNone, kNone, "\"2026-02-30T19:30:00Z\"", false},
    {"TIMESTAMP", kNone, kNone, "\"2026-08-05T19:30:00.1234567Z\"", false},
    {"ANY", kNone, kNone, "\"x\"", true},
    {"ANY", kNone, kNone, "[1]", false},
    {"INTEGER", kNone, kNone, "null", false},
};

class CoercionTest : public testing::TestWithParam<CoercionRow> {};

TEST_P(CoercionTest, FollowsTheWireEncoding) {
  const CoercionRow& row = GetParam();
  ParameterDecl parameter;
  parameter.name = "p";
  parameter.type = row.type;
  parameter.precision = row.precision;
  parameter.scale = row.scale;
  auto failure = CoercionFailure(parameter, Json::parse(row.value_json));
  EXPECT_EQ(!failure.has_value(), row.accepted)
      << row.type << " " << row.value_json << ": " << failure.value_or("accepted");
}

INSTANTIATE_TEST_SUITE_P(Rows, CoercionTest, testing::ValuesIn(kRows));

TEST(SampleValue, EverySampleSurvivesItsOwnCoercion) {
  for (const char* type : {"INTEGER", "BIGINTEGER", "DECIMAL", "BIGDECIMAL", "BOOLEAN", "STRING",
                           "BINARY", "DATE", "TIME", "TIMESTAMP"}) {
    EXPECT_FALSE(TypeCoercionFailure(type, SampleValue(type)).has_value()) << type;
  }
  ParameterDecl scaled{"amount", "BIGDECIMAL", false, std::nullopt, 18, 2, std::nullopt};
  EXPECT_EQ(SampleValue(scaled), "1.00");
  EXPECT_FALSE(CoercionFailure(scaled, SampleValue(scaled)).has_value());
}

TEST(DryRenderContext, DefaultsThenSamplesThenCalculatorKeys) {
  ValidationProblems problems;
  PipelineBody body = PipelineBodyParser::Parse(Json::parse(R"({
    "name": "test/dry", "display_name": "Dry",
    "parameters": {"start_date": {"type": "DATE", "required": true},
                   "region": {"type": "STRING", "required": false, "default": "EU"}},
    "nodes": [{"id": "w", "type": "CALCULATOR", "kind": "period_bounds",
               "inputs": {"date": "$start_date", "unit": "month"},
               "context_keys": {"start": "ws", "end": "we"}},
              {"id": "pick", "type": "CALCULATOR", "kind": "coalesce",
               "inputs": {"values": ["$region"]}, "context_key": "picked"}]})"),
                                                problems);
  ASSERT_TRUE(problems.empty());
  const Json context = DryRenderContext(body);
  EXPECT_EQ(context["start_date"], "2026-01-01");
  EXPECT_EQ(context["region"], "EU");
  EXPECT_EQ(context["ws"], "2026-01-01");
  EXPECT_EQ(context["we"], "2026-01-01");
  EXPECT_TRUE(context["picked"].is_string());
}

}  // namespace
}  // namespace dp
