// The resources/list cursor's primitives: HMAC-SHA256 against RFC 4231, the deployment sub-key
// (the same on every instance holding the same encryption key, different per purpose), and a
// cursor that redeems only for the key and the deployment that issued it.
#include "datapipelines/mcp/resource_cursor.hpp"

#include <gtest/gtest.h>

#include "datapipelines/util/crypto.hpp"
#include "datapipelines/util/secret_box.hpp"

namespace dp {
namespace {

std::string Hex(const std::string& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0x0F]);
  }
  return out;
}

TEST(ResourceCursorTest, HmacSha256MatchesRfc4231) {
  struct Vector {
    std::string key, data, mac;
  };
  const std::vector<Vector> vectors = {
      {std::string(20, '\x0b'), "Hi There",
       "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
      {"Jefe", "what do ya want for nothing?",
       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
      {std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First",
       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
  };
  for (const Vector& v : vectors) EXPECT_EQ(Hex(HmacSha256(v.key, v.data)), v.mac) << v.data;
}

TEST(ResourceCursorTest, DerivedKeysAreSharedPerDeploymentAndSeparatePerPurpose) {
  const std::string key(32, 'k');
  SecretBox a(key), b(key), other(std::string(32, 'o'));
  EXPECT_EQ(a.DeriveKey("mcp.resources.cursor"), b.DeriveKey("mcp.resources.cursor"));
  EXPECT_EQ(a.DeriveKey("mcp.resources.cursor").size(), 32u);
  EXPECT_NE(a.DeriveKey("mcp.resources.cursor"), a.DeriveKey("something.else"));
  EXPECT_NE(a.DeriveKey("mcp.resources.cursor"), other.DeriveKey("mcp.resources.cursor"));
  EXPECT_NE(a.DeriveKey("mcp.resources.cursor"), key);
}

TEST(ResourceCursorTest, RedeemsOnlyForTheIssuingKeyAndDeployment) {
  ResourceCursor cursors("deployment-a"), same("deployment-a"), other("deployment-b");
  ResourcePosition position{2, "datapipelines://templates/a/b.sql"};
  std::string token = cursors.Issue(position, "dpk_ONE");
  auto redeemed = same.Redeem(token, "dpk_ONE");
  ASSERT_TRUE(redeemed.has_value());
  EXPECT_EQ(redeemed->rank, 2);
  EXPECT_EQ(redeemed->key, position.key);
  EXPECT_FALSE(cursors.Redeem(token, "dpk_TWO").has_value());
  EXPECT_FALSE(other.Redeem(token, "dpk_ONE").has_value());
  for (std::size_t i = 0; i < token.size(); ++i) {  // any one-character edit is refused
    std::string edited = token;
    edited[i] = edited[i] == 'A' ? 'B' : 'A';
    EXPECT_FALSE(cursors.Redeem(edited, "dpk_ONE").has_value())
        << "edit at " << i << ": " << edited;
  }
  for (const char* bad : {"", ".", "abc", "e30=.e30=", "eyJvIjoxMDB9"}) {
    EXPECT_FALSE(cursors.Redeem(bad, "dpk_ONE").has_value()) << bad;
  }
}

}  // namespace
}  // namespace dp
