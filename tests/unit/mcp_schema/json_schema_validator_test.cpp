// Behaviour the suite does not pin: error paths, messages, and our draft-07 choices.
#include <gtest/gtest.h>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/mcp/json_schema_validator.hpp"

namespace dp {
namespace {

std::vector<ValidationError> Check(const char* schema, const Json& instance) {
  return JsonSchemaValidator(Json::parse(schema)).Validate(instance);
}

TEST(JsonSchemaValidator, NestedPathsUseDotsAndBrackets) {
  auto errors = Check(R"({"type":"object","properties":{"nodes":{"type":"array","items":
      {"type":"object","properties":{"id":{"type":"string"}}}}}})",
                      Json::parse(R"({"nodes":[{"id":"a"},{"id":3}]})"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].path, "nodes[1].id");
  EXPECT_EQ(errors[0].keyword, "type");
  EXPECT_EQ(FormatInvalidParams(errors), "Invalid params: 'nodes[1].id' must be of type string");
}

TEST(JsonSchemaValidator, RootTypeErrorNamesTheArguments) {
  auto errors = Check(R"({"type":"object"})", Json::array());
  EXPECT_EQ(FormatInvalidParams(errors), "Invalid params: arguments must be of type object");
  EXPECT_EQ(FormatInvalidParams({}), "");
}

TEST(JsonSchemaValidator, TypeArrayMessageListsEveryType) {
  auto errors = Check(R"({"properties":{"value":{"type":["string","null"]}}})", {{"value", 1}});
  EXPECT_EQ(FormatInvalidParams(errors), "Invalid params: 'value' must be of type null or string");
  EXPECT_TRUE(Check(R"({"properties":{"value":{"type":["string","null"]}}})", {{"value", nullptr}})
                  .empty());
}

TEST(JsonSchemaValidator, WholeFloatIsAnIntegerFractionalIsNot) {
  const char* schema = R"({"type":"integer","minimum":1,"maximum":500})";
  EXPECT_TRUE(Check(schema, Json::parse("1.0")).empty());
  EXPECT_FALSE(Check(schema, Json::parse("1.5")).empty());
  EXPECT_FALSE(Check(schema, "1").empty());
  EXPECT_EQ(FormatInvalidParams(Check(schema, 0)), "Invalid params: arguments must be >= 1");
}

TEST(JsonSchemaValidator, LengthsCountCodePointsNotBytes) {
  const char* schema = R"({"type":"string","minLength":3,"maxLength":3})";
  EXPECT_TRUE(Check(schema, "日本語").empty());  // 9 bytes, 3 code points
  EXPECT_TRUE(Check(schema, "a😀b").empty());     // a 4-byte code point counts once
  EXPECT_FALSE(Check(schema, "日本").empty());
}

TEST(JsonSchemaValidator, ReportsEveryErrorRequiredFirst) {
  auto errors = Check(R"({"type":"object","required":["id"],"additionalProperties":false,
      "properties":{"id":{"type":"string"},"limit":{"type":"integer","maximum":5}}})",
                      {{"limit", 9}, {"extra", true}});
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0].message, "missing required field 'id'");
  EXPECT_EQ(errors[0].path, "id");
  EXPECT_EQ(errors[1].message, "'limit' must be <= 5");
  EXPECT_EQ(errors[2].message, "unknown field 'extra' (declared: id, limit)");
  EXPECT_EQ(errors[2].keyword, "additionalProperties");
}

TEST(JsonSchemaValidator, UuidFormat) {
  const char* schema = R"({"format":"uuid"})";
  EXPECT_TRUE(Check(schema, "0b6f2a3e-6d1c-4c1e-9a43-1f2e3d4c5b6a").empty());
  EXPECT_TRUE(Check(schema, "0B6F2A3E-6D1C-4C1E-9A43-1F2E3D4C5B6A").empty());
  EXPECT_FALSE(Check(schema, "0b6f2a3e6d1c4c1e9a431f2e3d4c5b6a").empty());
  EXPECT_FALSE(Check(schema, "0b6f2a3e-6d1c-4c1e-9a43-1f2e3d4c5b6").empty());
  EXPECT_FALSE(Check(schema, "zb6f2a3e-6d1c-4c1e-9a43-1f2e3d4c5b6a").empty());
  EXPECT_TRUE(Check(schema, 12).empty());  // formats only constrain strings
}

TEST(JsonSchemaValidator, UnknownFormatPasses) {
  EXPECT_TRUE(Check(R"({"format":"hostname-ish"})", "anything at all").empty());
}

TEST(JsonSchemaValidator, UnsupportedKeywordIsRefusedAtCompileTime) {
  EXPECT_THROW(JsonSchemaValidator(Json::parse(R"({"$ref":"#/definitions/x"})")), DomainError);
  EXPECT_THROW(JsonSchemaValidator(Json::parse(R"({"type":"strin"})")), DomainError);
  EXPECT_THROW(JsonSchemaValidator(Json::parse(R"({"pattern":"(unclosed"})")), DomainError);
  EXPECT_THROW(JsonSchemaValidator(Json::parse("42")), DomainError);
}

TEST(JsonSchemaValidator, PatternIsAnUnanchoredEcmaScriptSearch) {
  EXPECT_TRUE(Check(R"({"pattern":"b+"})", "abbbc").empty());
  EXPECT_FALSE(Check(R"({"pattern":"^b+$"})", "abbbc").empty());
}

TEST(JsonSchemaValidator, CompiledValidatorIsReusableAndMovable) {
  JsonSchemaValidator first(Json::parse(R"({"enum":["a","b"]})"));
  JsonSchemaValidator moved(std::move(first));
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(moved.IsValid("a"));
    EXPECT_FALSE(moved.IsValid("c"));
  }
  EXPECT_EQ(FormatInvalidParams(moved.Validate("c")),
            "Invalid params: arguments must be one of: \"a\", \"b\"");
}

}  // namespace
}  // namespace dp
