// The learned-fact model without servers: the closed kind list, refs normalisation, the
// addressable fingerprint, the drift ladder and the text/refs agreement check (table-driven).
#include <gtest/gtest.h>

#include "datapipelines/semantics/drift_check.hpp"
#include "datapipelines/semantics/fact_kind.hpp"
#include "datapipelines/semantics/fact_ref.hpp"
#include "datapipelines/semantics/fact_text_check.hpp"
#include "datapipelines/semantics/schema_fingerprint.hpp"

namespace dp {
namespace {

ColumnSchema Col(const std::string& name, CanonicalType type = CanonicalType::kString) {
  ColumnSchema column;
  column.name = name;
  column.mapping.type = type;
  return column;
}

TEST(FactKinds, TheClosedListWithOneScopeEach) {
  EXPECT_EQ(AllFactKinds().size(), 12u);
  EXPECT_EQ(ScopeOfKind("unit"), FactScope::kDatasource);
  EXPECT_EQ(ScopeOfKind("format"), FactScope::kDatasource);
  EXPECT_EQ(ScopeOfKind("definition"), FactScope::kWorkspace);
  EXPECT_EQ(ScopeOfKind("preference"), FactScope::kWorkspace);
  for (const char* never : {"type", "nullable", "key", "comment", "partition", "row_count"}) {
    EXPECT_FALSE(ScopeOfKind(never)) << never;  // D-S2
  }
}

TEST(FactRefs, NormalisedRefsCompareAsOneValue) {
  auto a =
      NormaliseRefs({{"", "weather", "unit"}, {"", "weather", "temp_c"}, {"", "weather", "unit"}});
  auto b = NormaliseRefs({{"", "weather", "temp_c"}, {"", "weather", "unit"}});
  EXPECT_EQ(RefsToJson(a).dump(), RefsToJson(b).dump());
  EXPECT_EQ(RefsToJson(a)[0],
            Json::parse(R"({"schema":null,"table":"weather","column":"temp_c"})"));
  EXPECT_EQ(RefsFromJson(RefsToJson(a)), a);
  EXPECT_EQ((FactRef{"demo", "trips", ""}.TableKey()), "demo.trips");
}

TEST(SchemaFingerprints, EachTableStaysAddressable) {
  std::vector<ColumnSchema> trips{Col("id", CanonicalType::kBigInteger), Col("fare")};
  SchemaFingerprint fingerprint;
  fingerprint.Set("demo.trips", SchemaFingerprint::TableDigest(trips));
  fingerprint.Set("demo.zones", SchemaFingerprint::TableDigest({Col("id")}));
  auto parsed = SchemaFingerprint::Parse(fingerprint.ToString());
  EXPECT_EQ(parsed.Digest("demo.trips"), SchemaFingerprint::TableDigest(trips));
  EXPECT_TRUE(parsed.Digest("demo.zones"));
  EXPECT_FALSE(parsed.Digest("demo.weather"));
  // Column order does not matter; a type change does.
  EXPECT_EQ(SchemaFingerprint::TableDigest({Col("fare"), Col("id", CanonicalType::kBigInteger)}),
            SchemaFingerprint::TableDigest(trips));
  EXPECT_NE(SchemaFingerprint::TableDigest({Col("id"), Col("fare")}),
            SchemaFingerprint::TableDigest(trips));
}

TEST(DriftChecks, FromTheColumnsJustRead) {
  std::vector<ColumnSchema> before{Col("ts"), Col("temp_c")};
  FactRef table{"", "weather", ""};
  std::vector<FactRef> refs{{"", "weather", "temp_c"}};
  SchemaFingerprint fingerprint;
  fingerprint.Set("weather", SchemaFingerprint::TableDigest(before));
  std::string stored = fingerprint.ToString();
  EXPECT_FALSE(DriftCheck::FromColumns(refs, stored, table, before));
  auto added = DriftCheck::FromColumns(refs, stored, table, {Col("ts"), Col("temp_c"), Col("x")});
  ASSERT_TRUE(added);
  EXPECT_EQ(added->trust, "needs_review");
  auto dropped = DriftCheck::FromColumns(refs, stored, table, {Col("ts")});
  ASSERT_TRUE(dropped);
  EXPECT_EQ(dropped->trust, "stale");
  EXPECT_EQ(dropped->drift, "column temp_c no longer exists");
  EXPECT_FALSE(DriftCheck::FromColumns(refs, stored, FactRef{"", "zones", ""}, {Col("id")}));
  auto gone = DriftCheck::FromListing(refs, {"zones"});
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->drift, "table weather no longer exists");
  EXPECT_FALSE(DriftCheck::FromListing(refs, {"weather"}));
}

TEST(DriftChecks, DemotionsAreOneWay) {
  EXPECT_TRUE(DriftCheck::Demotes("observed", "needs_review"));
  EXPECT_TRUE(DriftCheck::Demotes("asserted", "stale"));
  EXPECT_TRUE(DriftCheck::Demotes("needs_review", "stale"));
  EXPECT_FALSE(DriftCheck::Demotes("stale", "needs_review"));
  EXPECT_FALSE(DriftCheck::Demotes("stale", "stale"));
  EXPECT_FALSE(DriftCheck::Demotes("needs_review", "needs_review"));
  EXPECT_FALSE(DriftCheck::Demotes("retired", "stale"));
}

struct TextCase {
  const char* name;
  std::string text;
  std::vector<FactRef> refs;
  std::string added;     // the table added, "" for none
  std::string mismatch;  // the near-miss token, "" for none
  std::string suggestion;
};

class TextChecks : public ::testing::TestWithParam<TextCase> {};

TEST_P(TextChecks, AgreeWithTheCatalog) {
  const TextCase& c = GetParam();
  std::vector<TableInfo> catalog{{"demo", "trips", "TABLE", {}},
                                 {"demo", "zones", "TABLE", {}},
                                 {"scratch", "zones", "TABLE", {}},
                                 {"demo", "weather_hourly", "TABLE", {}}};
  TextRefsVerdict verdict = FactTextCheck::Check({c.text}, catalog, c.refs, "demo");
  EXPECT_EQ(verdict.mismatch_token.value_or(""), c.mismatch);
  EXPECT_EQ(verdict.suggestion ? verdict.suggestion->name : "", c.suggestion);
  if (c.added.empty()) {
    EXPECT_TRUE(verdict.added.empty() || !c.mismatch.empty());
  } else {
    ASSERT_EQ(verdict.added.size(), 1u);
    EXPECT_EQ(verdict.added[0].TableKey(), c.added);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, TextChecks,
                         ::testing::Values(TextCase{"exact_table_added",
                                                    "pickup ids join Zones.id",
                                                    {{"demo", "trips", "pickup"}},
                                                    "demo.zones",
                                                    "",
                                                    ""},
                                           TextCase{"exact_table_already_referenced",
                                                    "every trips row is one ride",
                                                    {{"demo", "trips", ""}},
                                                    "",
                                                    "",
                                                    ""},
                                           TextCase{"ties_prefer_the_refs_schema",
                                                    "joins zones by id",
                                                    {{"scratch", "x", ""}},
                                                    "scratch.zones",
                                                    "",
                                                    ""},
                                           TextCase{"near_miss_identifier",
                                                    "see weather_hourlly for the hours",
                                                    {{"demo", "trips", ""}},
                                                    "",
                                                    "weather_hourlly",
                                                    "weather_hourly"},
                                           TextCase{"near_miss_with_a_digit",
                                                    "compare with trips2 first",
                                                    {{"demo", "zones", ""}},
                                                    "",
                                                    "trips2",
                                                    "trips"},
                                           TextCase{"near_miss_of_a_referenced_table",
                                                    "trip_s rows are rides",
                                                    {{"demo", "trips", ""}},
                                                    "",
                                                    "",
                                                    ""},
                                           TextCase{"prose_near_a_table_is_prose",
                                                    "one row per trip in each zone",
                                                    {{"demo", "weather_hourly", ""}},
                                                    "",
                                                    "",
                                                    ""},
                                           TextCase{"numbers_are_not_identifiers",
                                                    "the 2024 feed",
                                                    {{"demo", "trips", ""}},
                                                    "",
                                                    "",
                                                    ""}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace dp
