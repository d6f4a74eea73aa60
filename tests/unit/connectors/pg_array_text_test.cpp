#include "connectors/postgres/pg_array_text.hpp"

#include <gtest/gtest.h>

namespace dp {
namespace {

TEST(PgArrayTextTest, ParsesPlainQuotedAndEscapedElements) {
  EXPECT_EQ(ParsePgArrayText("{1,2,3}"), (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ(ParsePgArrayText("{\"a b\",c,\"q\\\"uote\"}"),
            (std::vector<std::string>{"a b", "c", "q\"uote"}));
  EXPECT_EQ(ParsePgArrayText("{\"x,y\"}"), (std::vector<std::string>{"x,y"}));
  EXPECT_TRUE(ParsePgArrayText("{}").empty());
  EXPECT_TRUE(ParsePgArrayText("not an array").empty());
}

}  // namespace
}  // namespace dp
