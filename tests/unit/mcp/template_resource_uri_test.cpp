// The template resource URI grammar (spec §7.2.2): the id is every segment after
// `templates`, and a versions/{n} suffix is recognised by the LAST two segments only.
#include <gtest/gtest.h>

#include "datapipelines/mcp/resources/template_resources.hpp"

namespace dp {
namespace {

struct UriCase {
  const char* uri;
  bool owned;
  const char* id;
  std::optional<int> version;
};

constexpr const char* kBase = "datapipelines://templates/";

TEST(TemplateResourceUri, ParsesByTheLastTwoSegments) {
  const UriCase cases[] = {
      {"acme/finance/daily_orders.sql", true, "acme/finance/daily_orders.sql", std::nullopt},
      {"acme/finance/daily_orders.sql/versions/3", true, "acme/finance/daily_orders.sql", 3},
      {"acme/versions/report.sql", true, "acme/versions/report.sql", std::nullopt},
      {"acme/versions/report.sql/versions/2", true, "acme/versions/report.sql", 2},
      {"acme/versions/versions/versions/7", true, "acme/versions/versions", 7},
      {"acme/versions/2", true, "acme", 2},
      {"versions/2", true, "", 2},
      {"acme/x.sql/versions/latest", true, "acme/x.sql/versions/latest", std::nullopt},
      {"acme/x.sql/versions/-1", true, "acme/x.sql/versions/-1", std::nullopt},
      {"acme/x.sql/versions/1234567890", true, "acme/x.sql/versions/1234567890", std::nullopt},
      {"acme/x.sql/versions/", true, "acme/x.sql/versions/", std::nullopt},
      {"", true, "", std::nullopt},
  };
  for (const UriCase& c : cases) {
    auto ref = ParseTemplateResourceUri(std::string(kBase) + c.uri);
    ASSERT_TRUE(ref) << c.uri;
    EXPECT_EQ(ref->id, c.id) << c.uri;
    EXPECT_EQ(ref->version, c.version) << c.uri;
  }
}

TEST(TemplateResourceUri, OtherUrisAreNotTemplates) {
  for (const char* uri : {"datapipelines://templates", "datapipelines://template/acme/x.sql",
                          "datapipelines://pipelines/acme/x", "datapipelines://docs/skill",
                          "file:///etc/passwd", ""}) {
    EXPECT_FALSE(ParseTemplateResourceUri(uri)) << uri;
  }
}

}  // namespace
}  // namespace dp
