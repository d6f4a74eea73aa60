// The endpoint path grammar, the pattern-overlap check and request matching, from one case file
// (tests/endpoint_cases/paths.json).
#include <gtest/gtest.h>

#include <fstream>

#include "datapipelines/endpoints/path_pattern.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {
namespace {

const Json& Cases() {
  static const Json cases = [] {
    std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/endpoint_cases/paths.json");
    return Json::parse(in);
  }();
  return cases;
}

TEST(PathPatterns, ParseFollowsTheGrammar) {
  ASSERT_FALSE(Cases()["parse"].empty());
  for (const Json& c : Cases()["parse"]) {
    std::string path = c["path"];
    std::string reason;
    auto pattern = PathPattern::Parse(path, &reason);
    ASSERT_EQ(pattern.has_value(), c["ok"].get<bool>()) << path << ": " << reason;
    if (pattern) {
      EXPECT_EQ(Json(pattern->Variables()), c["variables"]) << path;
      EXPECT_EQ(pattern->text(), path);
    } else {
      EXPECT_NE(reason.find(c["reason"].get<std::string>()), std::string::npos)
          << path << ": " << reason;
    }
  }
}

TEST(PathPatterns, OverlapIsSymmetricAndStructural) {
  ASSERT_FALSE(Cases()["overlap"].empty());
  for (const Json& c : Cases()["overlap"]) {
    auto a = PathPattern::Parse(c["a"]);
    auto b = PathPattern::Parse(c["b"]);
    ASSERT_TRUE(a && b) << c.dump();
    EXPECT_EQ(a->Overlaps(*b), c["overlaps"].get<bool>()) << c.dump();
    EXPECT_EQ(b->Overlaps(*a), c["overlaps"].get<bool>()) << c.dump();
  }
}

TEST(PathPatterns, MatchBindsDecodedVariables) {
  ASSERT_FALSE(Cases()["match"].empty());
  for (const Json& c : Cases()["match"]) {
    auto pattern = PathPattern::Parse(c["pattern"]);
    ASSERT_TRUE(pattern) << c.dump();
    auto bound = pattern->Match(c["path"]);
    if (c["bound"].is_null()) {
      EXPECT_FALSE(bound) << c.dump();
    } else {
      ASSERT_TRUE(bound) << c.dump();
      EXPECT_EQ(Json(*bound), c["bound"]) << c.dump();
    }
  }
}

}  // namespace
}  // namespace dp
