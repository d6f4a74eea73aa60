// The addresses operators configure: a bare address or `Display Name <address>`, never one
// that could smuggle a second header line or a second recipient.
#include "datapipelines/util/mailbox.hpp"

#include <gtest/gtest.h>

namespace dp {
namespace {

TEST(MailboxTest, ParsesBothForms) {
  auto bare = ParseMailbox("noreply@example.com");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->address, "noreply@example.com");
  EXPECT_EQ(bare->display_name, "");
  auto named = ParseMailbox("  Data Team <noreply@example.com> ");
  ASSERT_TRUE(named);
  EXPECT_EQ(named->display_name, "Data Team");
  EXPECT_EQ(named->address, "noreply@example.com");
  auto quoted = ParseMailbox("\"Data, Inc.\" <noreply@example.com>");
  ASSERT_TRUE(quoted);
  EXPECT_EQ(quoted->display_name, "Data, Inc.");
}

TEST(MailboxTest, RefusesWhatIsNotOneAddress) {
  for (const char* text : {"", "noreply", "@example.com", "noreply@", "a b@example.com",
                           "a@example.com, b@example.com", "Name <a@example.com", "Name <>",
                           "a@example.com\r\nBcc: x@example.com", "Na\"me <a@example.com>",
                           "<a@example.com> trailing"}) {
    EXPECT_FALSE(ParseMailbox(text)) << text;
  }
}

TEST(MailboxTest, DomainIsWhatFollowsTheLastAt) {
  EXPECT_EQ(MailDomain("ada@example.com"), "example.com");
  EXPECT_EQ(MailDomain("no-at"), "");
}

}  // namespace
}  // namespace dp
