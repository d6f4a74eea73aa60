// The template id grammar (spec §6.2.8): 2–10 folder-path segments, each
// [a-z0-9][a-z0-9_.-]{0,63}; browse prefixes are 1–9 segments.
#include "datapipelines/service/templates/template_id.hpp"

#include <gtest/gtest.h>

#include <string>

#include "datapipelines/domain/domain_error.hpp"

namespace dp {
namespace {

struct IdCase {
  std::string id;
  bool valid;
  const char* reason;  // expected details.reason when invalid
};

class TemplateIdCases : public ::testing::TestWithParam<IdCase> {};

TEST_P(TemplateIdCases, MatchesTheSchemaPattern) {
  const IdCase& c = GetParam();
  EXPECT_EQ(IsTemplateId(c.id), c.valid) << c.id;
  try {
    ValidateTemplateId(c.id);
    EXPECT_TRUE(c.valid) << c.id;
  } catch (const DomainError& e) {
    EXPECT_FALSE(c.valid) << c.id;
    EXPECT_EQ(std::string(e.code().code), "template.validation.id_invalid");
    EXPECT_EQ(e.details()["reason"], c.reason) << c.id;
  }
}

const std::string k64(64, 'a');

INSTANTIATE_TEST_SUITE_P(
    Grammar, TemplateIdCases,
    ::testing::Values(IdCase{"acme/x.sql", true, ""}, IdCase{"a/b/c/d/e/f/g/h/i/j", true, ""},
                      IdCase{"0/9-_.x", true, ""}, IdCase{k64 + "/" + k64, true, ""},
                      IdCase{"orders.sql", false, "folder_required"},
                      IdCase{"a/b/c/d/e/f/g/h/i/j/k", false, "pattern"},
                      IdCase{k64 + "a/x", false, "pattern"}, IdCase{"Acme/x", false, "pattern"},
                      IdCase{"acme/_x", false, "pattern"}, IdCase{"acme//x", false, "pattern"},
                      IdCase{"acme/x/", false, "pattern"}, IdCase{"/acme/x", false, "pattern"},
                      IdCase{"", false, "pattern"}, IdCase{"acme/x y", false, "pattern"},
                      IdCase{"acme/é", false, "pattern"}));

TEST(TemplateIdTest, FolderPathsRootsAndGeneratedIds) {
  EXPECT_TRUE(IsTemplateFolderPath("acme"));
  EXPECT_TRUE(IsTemplateFolderPath("a/b/c/d/e/f/g/h/i"));
  EXPECT_FALSE(IsTemplateFolderPath("a/b/c/d/e/f/g/h/i/j"));
  EXPECT_FALSE(IsTemplateFolderPath(""));
  EXPECT_FALSE(IsTemplateFolderPath("Acme"));
  EXPECT_EQ(TemplateRoot("acme/finance/x.sql"), "acme");
  std::string generated = GenerateTestTemplateId();
  EXPECT_EQ(generated.rfind("test/tpl_", 0), 0u);
  EXPECT_TRUE(IsTemplateId(generated));
  EXPECT_NE(generated, GenerateTestTemplateId());
}

}  // namespace
}  // namespace dp
