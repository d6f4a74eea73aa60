#include "datapipelines/service/identity/account_rules.hpp"

#include <gtest/gtest.h>

namespace dp {
namespace {

TEST(AccountRules, NormalizesEmails) {
  EXPECT_EQ(NormalizeEmail("  Alice@Example.COM \n"), "alice@example.com");
}

TEST(AccountRules, EmailShape) {
  for (const char* ok : {"a@b.co", "alice.smith+tag@mail.example.org"}) {
    EXPECT_TRUE(IsValidEmail(ok)) << ok;
  }
  for (const char* bad :
       {"", "alice", "@example.com", "alice@", "alice@example", "alice@@example.com", "a@b@c.com",
        "al ice@example.com", "alice@example.", "alice@.com", "alice@exa..mple.com"}) {
    EXPECT_FALSE(IsValidEmail(bad)) << bad;
  }
  std::string too_long(250, 'a');
  too_long.append("@b.co");
  EXPECT_FALSE(IsValidEmail(too_long));
}

TEST(AccountRules, WorkspaceNames) {
  for (const char* ok : {"default", "a", "team-data_2", "0"}) {
    EXPECT_TRUE(IsValidWorkspaceName(ok)) << ok;
  }
  EXPECT_TRUE(IsValidWorkspaceName(std::string(63, 'x')));
  EXPECT_FALSE(IsValidWorkspaceName(std::string(64, 'x')));
  for (const char* bad : {"", "Default", "with space", "dots.not", "ümlaut", "a/b"}) {
    EXPECT_FALSE(IsValidWorkspaceName(bad)) << bad;
  }
}

TEST(AccountRules, Utf8LengthCountsCodePoints) {
  EXPECT_EQ(Utf8Length(""), 0u);
  EXPECT_EQ(Utf8Length("abc"), 3u);
  EXPECT_EQ(Utf8Length("häßlich"), 7u);
  EXPECT_EQ(Utf8Length("日本語"), 3u);
}

}  // namespace
}  // namespace dp
