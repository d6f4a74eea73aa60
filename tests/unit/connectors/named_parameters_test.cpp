#include "datapipelines/connectors/named_parameters.hpp"

#include <gtest/gtest.h>

namespace dp {
namespace {

TEST(NamedParametersTest, FindsPlaceholdersInOrder) {
  auto p =
      NamedParameters::Parse("SELECT * FROM t WHERE a = :a AND b=:b_2 OR a=:a", Dialect::kPostgres);
  EXPECT_EQ(p.names, (std::vector<std::string>{"a", "b_2", "a"}));
  EXPECT_EQ(p.DistinctNames(), (std::vector<std::string>{"a", "b_2"}));
  ASSERT_EQ(p.pieces.size(), 4u);
  EXPECT_EQ(p.pieces[0], "SELECT * FROM t WHERE a = ");
  EXPECT_EQ(p.pieces[3], "");
}

TEST(NamedParametersTest, IgnoresLiteralsCommentsAndCasts) {
  std::string sql =
      "SELECT ':x', \":y\", $tag$ :z $tag$, x::text, :p::int -- :c\n"
      "/* :d */ FROM t WHERE e = E'\\' :f' AND arr[1:2] = :q";
  auto p = NamedParameters::Parse(sql, Dialect::kPostgres);
  EXPECT_EQ(p.names, (std::vector<std::string>{"p", "q"}));
  std::string rejoined = p.pieces[0] + "?" + p.pieces[1] + "?" + p.pieces[2];
  EXPECT_NE(rejoined.find("::int"), std::string::npos);
  EXPECT_NE(rejoined.find("$tag$ :z $tag$"), std::string::npos);
}

TEST(NamedParametersTest, MysqlBackticksHashCommentsAndBackslashes) {
  auto p = NamedParameters::Parse("SELECT `:a`, 'it\\'s :b' # :c\n, :d", Dialect::kMysql);
  EXPECT_EQ(p.names, (std::vector<std::string>{"d"}));
}

TEST(NamedParametersTest, DoubledQuotesStayInsideTheLiteral) {
  auto p = NamedParameters::Parse("SELECT 'O''Reilly :x', :y", Dialect::kSqlite);
  EXPECT_EQ(p.names, (std::vector<std::string>{"y"}));
}

}  // namespace
}  // namespace dp
