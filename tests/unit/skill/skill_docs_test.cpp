#include "datapipelines/service/docs/skill_docs.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "datapipelines/app/application.hpp"
#include "datapipelines/demo/demo_dataset.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/mcp/tool_definition.hpp"
#include "datapipelines/mcp/tool_reference.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

const fs::path kSkillDir = fs::path(DP_SOURCE_DIR) / "skill";
const fs::path kPluginDir = fs::path(DP_SOURCE_DIR) / "plugins" / "datapipelines";

// SKILL.md and references/*.md under `dir`, relative to it.
std::set<std::string> SkillFiles(const fs::path& dir) {
  std::set<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::string relative = fs::relative(entry.path(), dir).string();
    if (relative == "SKILL.md" || relative.rfind("references/", 0) == 0) files.insert(relative);
  }
  return files;
}

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
    EXPECT_FALSE(doc.purpose.empty()) << doc.name;  // the operating core's too (issue 13)
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

// Delivery 4 (spec §15): the plugin ships a COPY of the skill; refresh it with
// scripts/sync-plugin. Byte-identical, both directions.
TEST(SkillDocsTest, PluginCopyEqualsTheSkill) {
  const fs::path copy = kPluginDir / "skills" / "datapipelines";
  ASSERT_TRUE(fs::is_directory(copy)) << copy;
  std::set<std::string> source = SkillFiles(kSkillDir);
  std::set<std::string> copied;
  for (const auto& entry : fs::recursive_directory_iterator(copy)) {
    if (entry.is_regular_file()) copied.insert(fs::relative(entry.path(), copy).string());
    EXPECT_FALSE(entry.is_symlink()) << entry.path() << ": a copy, never a symlink";
  }
  EXPECT_EQ(copied, source) << "run scripts/sync-plugin";
  for (const std::string& file : source) {
    EXPECT_EQ(ReadFile(copy / file), ReadFile(kSkillDir / file))
        << file << " differs in the plugin: run scripts/sync-plugin";
  }
}

TEST(SkillDocsTest, PluginCarriesTheServerEntryAndItsUserConfig) {
  Json marketplace =
      Json::parse(ReadFile(fs::path(DP_SOURCE_DIR) / ".claude-plugin" / "marketplace.json"));
  ASSERT_EQ(marketplace["plugins"].size(), 1u);
  EXPECT_EQ(marketplace["plugins"][0]["name"], "datapipelines");
  EXPECT_TRUE(fs::is_directory(fs::path(DP_SOURCE_DIR) /
                               marketplace["plugins"][0]["source"].get<std::string>()));
  Json manifest = Json::parse(ReadFile(kPluginDir / ".claude-plugin" / "plugin.json"));
  EXPECT_EQ(manifest["name"], "datapipelines");
  EXPECT_TRUE(manifest["userConfig"].contains("url"));
  EXPECT_EQ(manifest["userConfig"]["api_key"]["sensitive"], true);
  Json mcp = Json::parse(ReadFile(kPluginDir / ".mcp.json"));
  const Json& server = mcp["mcpServers"]["datapipelines"];
  EXPECT_EQ(server["type"], "http");
  EXPECT_EQ(server["url"], "${user_config.url}/mcp");
  EXPECT_EQ(server["headers"]["DP-API-Key"], "${user_config.api_key}");
  // A plugin .mcp.json expands only ${user_config.*} and ${CLAUDE_PLUGIN_*}.
  std::string text = mcp.dump();
  std::regex variable(R"(\$\{([A-Za-z_.]+)\})");
  for (std::sregex_iterator it(text.begin(), text.end(), variable), end; it != end; ++it) {
    std::string name = (*it)[1];
    EXPECT_TRUE(name.rfind("user_config.", 0) == 0 || name.rfind("CLAUDE_PLUGIN_", 0) == 0) << name;
  }
}

// The manual and the generated tool reference carry no sample-data names (spec v1.30): an
// agent must learn tables from introspection, never from an example that happens to match the
// demo dataset this repository ships. Every demo table name and every demo column name that is
// not an ordinary English word is refused as a whole word, with the demo datasource's name.
TEST(SkillDocsTest, SkillHasNoDemoContent) {
  const std::set<std::string> ordinary = {"id",      "name",    "date",   "year",       "month",
                                          "quarter", "weekday", "lat",    "lon",        "ts",
                                          "fare",    "tip",     "vendor", "conditions", "calendar"};
  std::vector<std::string> forbidden = {"borough", "boroughs", "city/mobility"};
  for (const DemoTableDef& table : DemoDataset::Tables()) {
    if (!ordinary.count(table.name)) forbidden.push_back(table.name);
    for (const DemoColumn& column : table.columns) {
      if (!ordinary.count(column.name)) forbidden.push_back(column.name);
    }
  }
  std::set<std::string> files = SkillFiles(kSkillDir);
  files.insert("INSTRUCTIONS.md");
  for (const std::string& file : files) {
    std::string text = ReadFile(kSkillDir / file);
    for (const std::string& word : forbidden) {
      std::regex whole("(^|[^A-Za-z0-9_])" + word + "([^A-Za-z0-9_]|$)", std::regex::icase);
      std::smatch match;
      if (std::regex_search(text, match, whole)) {
        ADD_FAILURE() << file << " names the demo dataset's '" << word << "' near: "
                      << text.substr(static_cast<size_t>(
                                         std::max<std::ptrdiff_t>(0, match.position(0) - 40)),
                                     100);
      }
    }
    std::regex demo_source(R"("demo"|`demo`|demo datasource)");
    EXPECT_FALSE(std::regex_search(text, demo_source)) << file << " names the demo datasource";
  }
}

// The initialize instructions and the manual's core name only tools this build serves: a
// catalogued tool that is not served may be mentioned only as "not yet served" capability
// (by area, never by tool name), so an agent never reaches for a tool that is absent.
TEST(SkillDocsTest, InstructionsAndSkillNameOnlyServedTools) {
  Config config;
  config.metadata_url = ":memory:";
  config.data_dir = (fs::temp_directory_path() / "dp_skill_test_served").string();
  config.blocking_threads = 1;
  config.io_threads = 1;
  Application application(config);
  std::set<std::string> served;
  for (const CatalogEntry* entry : application.Catalog().Served()) {
    served.insert(std::string(entry->definition->name()));
  }
  for (const char* file : {"INSTRUCTIONS.md", "SKILL.md"}) {
    std::string text = ReadFile(kSkillDir / file);
    for (const ToolDefinition& definition : AllToolDefinitions()) {
      std::string name(definition.name());
      std::regex word("(^|[^a-z_])" + name + "([^a-z_]|$)");
      if (std::regex_search(text, word)) {
        EXPECT_TRUE(served.count(name)) << file << " names " << name << ", which is not served";
      }
    }
  }
}

}  // namespace
}  // namespace dp
