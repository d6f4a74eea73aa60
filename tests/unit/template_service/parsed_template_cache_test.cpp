#include "datapipelines/service/templates/parsed_template_cache.hpp"

#include <gtest/gtest.h>

#include "datapipelines/store/template_records.hpp"
#include "datapipelines/template/evaluation/template_renderer.hpp"

namespace dp {
namespace {

TemplateVersionRecord Version(const std::string& id, int version, const std::string& body) {
  TemplateVersionRecord record;
  record.workspace_id = "ws";
  record.template_id = id;
  record.version = version;
  record.body = body;
  record.body_hash = "hash-of-" + body;
  return record;
}

std::string Render(const ParsedTemplate& parsed) {
  return TemplateRenderer::Render(parsed, Json{{"n", 7}});
}

TEST(ParsedTemplateCache, ParsesEachContentOnce) {
  ParsedTemplateCache cache(8);
  auto v1 = Version("test/a.sql", 1, "SELECT ${n}");
  EXPECT_EQ(Render(cache.Get(v1, 1000)), "SELECT 7");
  EXPECT_EQ(Render(cache.Get(v1, 1000)), "SELECT 7");
  EXPECT_EQ(cache.parses(), 1u);
  EXPECT_EQ(cache.size(), 1u);
}

TEST(ParsedTemplateCache, AnOverwrittenDraftIsANewEntry) {
  ParsedTemplateCache cache(8);
  EXPECT_EQ(Render(cache.Get(Version("test/a.sql", 1, "SELECT ${n}"), 1000)), "SELECT 7");
  EXPECT_EQ(Render(cache.Get(Version("test/a.sql", 1, "SELECT ${n} + 1"), 1000)), "SELECT 7 + 1");
  EXPECT_EQ(cache.parses(), 2u);
}

TEST(ParsedTemplateCache, EvictsTheLeastRecentlyUsed) {
  ParsedTemplateCache cache(2);
  auto a = Version("test/a.sql", 1, "A");
  auto b = Version("test/b.sql", 1, "B");
  auto c = Version("test/c.sql", 1, "C");
  cache.Get(a, 1000);
  cache.Get(b, 1000);
  cache.Get(a, 1000);  // a is now the most recent
  cache.Get(c, 1000);  // evicts b
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.parses(), 3u);
  cache.Get(a, 1000);
  EXPECT_EQ(cache.parses(), 3u);
  cache.Get(b, 1000);
  EXPECT_EQ(cache.parses(), 4u);
}

TEST(ParsedTemplateCache, CapacityZeroParsesEveryTime) {
  ParsedTemplateCache cache(0);
  auto a = Version("test/a.sql", 1, "A");
  cache.Get(a, 1000);
  cache.Get(a, 1000);
  EXPECT_EQ(cache.parses(), 2u);
  EXPECT_EQ(cache.size(), 0u);
}

TEST(ParsedTemplateCache, AParseFailureIsNotCached) {
  ParsedTemplateCache cache(4);
  auto bad = Version("test/bad.sql", 1, "<#if>");
  EXPECT_ANY_THROW(cache.Get(bad, 1000));
  EXPECT_ANY_THROW(cache.Get(bad, 1000));
  EXPECT_EQ(cache.size(), 0u);
}

}  // namespace
}  // namespace dp
