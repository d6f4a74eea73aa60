#include "datapipelines/service/identity/api_key_format.hpp"

#include <gtest/gtest.h>

#include <set>

namespace dp {
namespace {

bool IsBase32Char(char c) { return (c >= 'A' && c <= 'Z') || (c >= '2' && c <= '7'); }

TEST(ApiKeyFormat, GeneratedKeyHasTheDocumentedShape) {
  GeneratedApiKey key = GenerateApiKey();
  ASSERT_EQ(key.id.size(), 16u);
  EXPECT_EQ(key.id.substr(0, 4), "dpk_");
  ASSERT_EQ(key.plaintext.size(), 65u);
  EXPECT_EQ(key.plaintext.substr(0, 16), key.id);
  EXPECT_EQ(key.plaintext[16], '.');
  for (char c : key.plaintext.substr(4, 12) + key.plaintext.substr(17)) {
    EXPECT_TRUE(IsBase32Char(c)) << c;
  }
}

TEST(ApiKeyFormat, GeneratedKeysAreUnique) {
  std::set<std::string> ids, secrets;
  for (int i = 0; i < 200; ++i) {
    GeneratedApiKey key = GenerateApiKey();
    ids.insert(key.id);
    secrets.insert(key.plaintext);
  }
  EXPECT_EQ(ids.size(), 200u);
  EXPECT_EQ(secrets.size(), 200u);
}

TEST(ApiKeyFormat, ParseRoundTripsAGeneratedKey) {
  GeneratedApiKey key = GenerateApiKey();
  auto parsed = ParseApiKey(key.plaintext);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->id, key.id);
  EXPECT_EQ(parsed->full, key.plaintext);
}

TEST(ApiKeyFormat, ParseRejectsEveryMalformedShape) {
  const std::string good = GenerateApiKey().plaintext;
  std::vector<std::string> bad = {
      "",
      "dpk_",
      good.substr(0, 64),                                    // one short
      good + "A",                                            // one long
      "DPK_" + good.substr(4),                               // prefix is case-sensitive
      "xpk_" + good.substr(4),                               // wrong prefix
      good.substr(0, 16) + "-" + good.substr(17),            // wrong separator
      good.substr(0, 4) + "abcdefghijkl" + good.substr(16),  // lower-case id
      good.substr(0, 4) + "ABCDEFGHIJK1" + good.substr(16),  // '1' is not base32
      good.substr(0, 17) + std::string(47, 'A') + "8",       // '8' is not base32
      good.substr(0, 17) + std::string(47, 'A') + "=",       // no padding
      good.substr(0, 20) + " " + good.substr(21),            // embedded space
      " " + good.substr(1),
  };
  for (const auto& token : bad) EXPECT_FALSE(ParseApiKey(token).has_value()) << token;
}

TEST(ApiKeyFormat, PrefixDetection) {
  EXPECT_TRUE(HasApiKeyPrefix("dpk_anything"));
  EXPECT_FALSE(HasApiKeyPrefix("eyJhbGciOi"));
  EXPECT_FALSE(HasApiKeyPrefix(""));
}

}  // namespace
}  // namespace dp
