// COPY text encoding: the exact bytes PostgreSQL's COPY FROM STDIN expects.
#include "datapipelines/connectors/wire/copy_text.hpp"

#include <gtest/gtest.h>

namespace dp {
namespace {

struct Case {
  std::string value;
  std::string encoded;
};

TEST(CopyTextTest, EscapesExactlyTheSpecialBytes) {
  const std::vector<Case> cases = {
      {"plain", "plain"},
      {"", ""},
      {"a\tb", "a\\tb"},
      {"a\nb", "a\\nb"},
      {"a\rb", "a\\rb"},
      {"a\\b", "a\\\\b"},
      {"\\N", "\\\\N"},  // text that looks like NULL stays text
      {"end\\", "end\\\\"},
      {"\t\n\\", "\\t\\n\\\\"},
      {"Zürich 東京 🚕", "Zürich 東京 🚕"},  // UTF-8 passes through byte for byte
      {"it's \"q\"", "it's \"q\""},
  };
  for (const auto& c : cases) {
    std::string out;
    copy_text::AppendValue(out, c.value);
    EXPECT_EQ(out, c.encoded) << c.value;
  }
}

TEST(CopyTextTest, RowsAreTabSeparatedWithNullAsBackslashN) {
  std::string out = "prior\n";
  copy_text::AppendRow(out, {"1", std::nullopt, "", "x\ty"});
  copy_text::AppendRow(out, {std::nullopt});
  EXPECT_EQ(out, "prior\n1\t\\N\t\tx\\ty\n\\N\n");
}

}  // namespace
}  // namespace dp
