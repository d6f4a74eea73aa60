// Runs the official JSON-Schema-Test-Suite (Debian package json-schema-test-suite, draft-07)
// against JsonSchemaValidator for every keyword the validator supports. Groups outside our
// subset are listed in kSkippedGroups with the reason; anything else must compile and pass.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <utility>

#include "datapipelines/mcp/json_schema_validator.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSuiteDir = "/usr/share/json-schema-test-suite/tests";

// Files whose keyword we support; paths relative to kSuiteDir. Not run at all (outside the
// subset the 41 tool schemas need): contains, definitions, dependencies, if-then-else,
// patternProperties, propertyNames, ref, refRemote (no $ref support), and the optional
// bignum, ecmascript-regex (std::regex has no \p{..}/unicode classes), content (annotations
// in draft-07) and zeroTerminatedFloats (contradicts the mandatory 1.0-is-an-integer rule).
const char* const kFiles[] = {
    "draft7/additionalItems.json",
    "draft7/additionalProperties.json",
    "draft7/allOf.json",
    "draft7/anyOf.json",
    "draft7/boolean_schema.json",
    "draft7/const.json",
    "draft7/default.json",
    "draft7/enum.json",
    "draft7/exclusiveMaximum.json",
    "draft7/exclusiveMinimum.json",
    "draft7/items.json",
    "draft7/maxItems.json",
    "draft7/maxLength.json",
    "draft7/maxProperties.json",
    "draft7/maximum.json",
    "draft7/minItems.json",
    "draft7/minLength.json",
    "draft7/minProperties.json",
    "draft7/minimum.json",
    "draft7/multipleOf.json",
    "draft7/not.json",
    "draft7/oneOf.json",
    "draft7/pattern.json",
    "draft7/properties.json",
    "draft7/required.json",
    "draft7/type.json",
    "draft7/uniqueItems.json",
    "draft7/optional/format/date-time.json",
};

// {file, group description}: groups inside a supported file that use an unsupported keyword.
const std::set<std::pair<std::string, std::string>> kSkippedGroups = {
    // patternProperties is not in our subset.
    {"draft7/additionalProperties.json",
     "additionalProperties being false does not allow other properties"},
    {"draft7/additionalProperties.json", "non-ASCII pattern with additionalProperties"},
    {"draft7/properties.json", "properties, patternProperties, additionalProperties interaction"},
};

struct Totals {
  int run = 0;
  int passed = 0;
  int skipped = 0;
};

Totals& GrandTotals() {
  static Totals totals;
  return totals;
}

class JsonSchemaTestSuite : public ::testing::TestWithParam<const char*> {
 public:
  static void TearDownTestSuite() {
    const Totals& t = GrandTotals();
    std::cout << "[json-schema-test-suite] cases run: " << t.run << ", passed: " << t.passed
              << ", skipped: " << t.skipped << "\n";
  }
};

TEST_P(JsonSchemaTestSuite, AllCasesPass) {
  const std::string file = GetParam();
  fs::path path = fs::path(kSuiteDir) / file;
  if (!fs::exists(path)) GTEST_SKIP() << "json-schema-test-suite not installed: " << path;
  std::ifstream in(path);
  Json groups = Json::parse(in);
  Totals& totals = GrandTotals();
  for (const Json& group : groups) {
    const std::string description = group.at("description").get<std::string>();
    if (kSkippedGroups.count({file, description})) {
      totals.skipped += static_cast<int>(group.at("tests").size());
      continue;
    }
    SCOPED_TRACE(file + " / " + description);
    std::optional<JsonSchemaValidator> validator;
    ASSERT_NO_THROW(validator.emplace(group.at("schema"))) << group.at("schema").dump();
    for (const Json& test : group.at("tests")) {
      ++totals.run;
      bool expected = test.at("valid").get<bool>();
      std::vector<ValidationError> errors = validator->Validate(test.at("data"));
      EXPECT_EQ(errors.empty(), expected)
          << test.at("description").get<std::string>() << " data=" << test.at("data").dump()
          << (errors.empty() ? std::string() : " first error: " + errors.front().message);
      if (errors.empty() == expected) ++totals.passed;
      // Every failure names its keyword and says something.
      for (const ValidationError& error : errors) {
        EXPECT_FALSE(error.keyword.empty());
        EXPECT_FALSE(error.message.empty());
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Draft7, JsonSchemaTestSuite, ::testing::ValuesIn(kFiles),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace dp
