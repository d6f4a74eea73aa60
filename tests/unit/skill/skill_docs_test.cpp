#include "datapipelines/service/skill_docs.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "datapipelines/app/application.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/mcp/tool_reference.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

const fs::path kSkillDir = fs::path(DP_SOURCE_DIR) / "skill";

TEST(SkillDocsTest, InstructionsFitTheHandshakeBudget) {
  std::string_view instructions = BuiltInSkillDocs().Instructions();
  EXPECT_FALSE(instructions.empty());
  EXPECT_LE(instructions.size(), 4096u);  // spec §15: every client injects it every session
  EXPECT_NE(instructions.find("datapipelines://docs/skill"), std::string_view::npos);
  EXPECT_NE(instructions.find("workspace"), std::string_view::npos);
}

TEST(SkillDocsTest, CoreHasFrontMatterAndStaysShort) {
  const SkillDoc& core = BuiltInSkillDocs().Require("skill");
  EXPECT_EQ(core.markdown.rfind("---\nname: datapipelines\n", 0), 0u);
  EXPECT_LE(std::count(core.markdown.begin(), core.markdown.end(), '\n'), 400);
  EXPECT_FALSE(core.title.empty());
}

// The binary serves exactly the committed bytes, in both directions.
TEST(SkillDocsTest, EmbeddedFilesEqualTheRepository) {
  std::set<std::string> on_disk;
  for (const auto& entry : fs::recursive_directory_iterator(kSkillDir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".md") {
      on_disk.insert(fs::relative(entry.path(), kSkillDir).string());
    }
  }
  std::set<std::string> embedded;
  for (const EmbeddedFile& file : EmbeddedSkillFiles()) {
    embedded.insert(std::string(file.path));
    EXPECT_EQ(file.bytes, ReadFile(kSkillDir / file.path)) << file.path;
  }
  EXPECT_EQ(on_disk, embedded);
}

TEST(SkillDocsTest, EveryReferenceHasAMapLineAndTitle) {
  const SkillDocs& docs = BuiltInSkillDocs();
  ASSERT_GE(docs.List().size(), 2u);
  EXPECT_EQ(docs.List().front().name, "skill");
  for (const SkillDoc& doc : docs.List()) {
    EXPECT_FALSE(doc.title.empty()) << doc.name;
    if (doc.name != "skill") {
      EXPECT_FALSE(doc.purpose.empty()) << doc.name;
    }
  }
  EXPECT_NE(docs.Find("tools.md"), nullptr);
  EXPECT_EQ(docs.Find("../SKILL"), nullptr);
}

TEST(SkillDocsTest, MapAndFilesMustAgree) {
  std::string skill =
      "---\nname: datapipelines\n---\n# Core\n\n## References\n\n- [a](references/a.md) — open "
      "when a\n";
  std::string a = "# A\n";
  std::string b = "# B\n";
  std::vector<EmbeddedFile> good = {{"SKILL.md", skill}, {"references/a.md", a}};
  EXPECT_NO_THROW(SkillDocs{good});
  std::vector<EmbeddedFile> orphan = {
      {"SKILL.md", skill}, {"references/a.md", a}, {"references/b.md", b}};
  EXPECT_THROW(SkillDocs{orphan}, std::runtime_error);
  std::vector<EmbeddedFile> missing = {{"SKILL.md", skill}};
  EXPECT_THROW(SkillDocs{missing}, std::runtime_error);
}

TEST(SkillDocsTest, UnknownDocumentListsTheKnownOnes) {
  try {
    BuiltInSkillDocs().Require("nope");
    FAIL();
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code().code, "mcp.doc_not_found");
    EXPECT_EQ(e.details()["known_docs"][0], "skill");
  }
}

// references/tools.md is generated from the served catalog; regenerate with
// `build/datapipelines tool-reference > skill/references/tools.md`.
TEST(SkillDocsTest, ToolReferenceMatchesTheCatalog) {
  Config config;
  config.metadata_url = ":memory:";
  config.data_dir = (fs::temp_directory_path() / "dp_skill_test").string();
  config.blocking_threads = 1;
  config.io_threads = 1;
  Application application(config);
  EXPECT_EQ(ReadFile(kSkillDir / "references" / "tools.md"),
            RenderToolReference(application.Catalog()))
      << "skill/references/tools.md is stale: run build/datapipelines tool-reference > "
         "skill/references/tools.md";
}

}  // namespace
}  // namespace dp
