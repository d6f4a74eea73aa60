// MailSendStore on both adapters: one claim per (user, kind, act), stamps, the latest claim.
#include <gtest/gtest.h>

#include <string>

#include "datapipelines/store/mail_send_store.hpp"

#include "store_suite.hpp"

namespace dp {
namespace {

using namespace store_suite;

class MailSendStoreTest : public StoreSuite {
 protected:
  MailSend Claim(const std::string& id, const std::string& kind, const std::string& act,
                 int64_t claimed_at_ms) {
    MailSend claim;
    claim.id = id;
    claim.user_id = "u1";
    claim.kind = kind;
    claim.act_id = act;
    claim.recipient = "one@example.com";
    claim.claimed_at_ms = claimed_at_ms;
    return claim;
  }
};

TEST_P(MailSendStoreTest, OnlyTheFirstClaimOfAMessageWins) {
  SeedUserAndWorkspace();
  auto sends = OpenMailSendStore(store());
  EXPECT_TRUE(sends->TryClaim(Claim("m1", "welcome", "u1", 100)));
  EXPECT_FALSE(sends->TryClaim(Claim("m2", "welcome", "u1", 200)));
  EXPECT_TRUE(sends->TryClaim(Claim("m3", "new_user", "u1", 300)));
  const auto latest = sends->LatestOf("u1", "welcome");
  ASSERT_TRUE(latest);
  EXPECT_EQ(latest->id, "m1");
  EXPECT_EQ(latest->Status(), "pending");
  EXPECT_EQ(latest->recipient, "one@example.com");
  EXPECT_EQ(latest->claimed_at_ms, 100);
  EXPECT_FALSE(sends->LatestOf("u1", "password_reset"));
}

TEST_P(MailSendStoreTest, StampsSayWhetherTheServerTookIt) {
  SeedUserAndWorkspace();
  auto sends = OpenMailSendStore(store());
  ASSERT_TRUE(sends->TryClaim(Claim("m1", "password_reset", "r1", 100)));
  ASSERT_TRUE(sends->TryClaim(Claim("m2", "password_reset", "r2", 200)));
  sends->MarkFailed("m1", "the SMTP server refused AUTH PLAIN: 535 Invalid");
  sends->MarkSent("m2", 250, "<id@example.com>");
  const auto latest = sends->LatestOf("u1", "password_reset");
  ASSERT_TRUE(latest);
  EXPECT_EQ(latest->id, "m2");  // two resets are two mails; the screen reads the latest
  EXPECT_EQ(latest->Status(), "sent");
  EXPECT_EQ(latest->sent_at_ms, 250);
  EXPECT_EQ(latest->message_id, "<id@example.com>");
  ASSERT_TRUE(sends->TryClaim(Claim("m3", "welcome", "u1", 300)));
  sends->MarkFailed("m3", "connecting to smtp.example.com:587 failed");
  EXPECT_EQ(sends->LatestOf("u1", "welcome")->Status(), "failed");
  EXPECT_EQ(sends->LatestOf("u1", "welcome")->error, "connecting to smtp.example.com:587 failed");
}

TEST_P(MailSendStoreTest, AClaimNeedsAUserAndAKnownKind) {
  SeedUserAndWorkspace();
  auto sends = OpenMailSendStore(store());
  MailSend stranger = Claim("m1", "welcome", "nobody", 100);
  stranger.user_id = "nobody";
  EXPECT_ANY_THROW(sends->TryClaim(stranger));
  EXPECT_ANY_THROW(sends->TryClaim(Claim("m2", "newsletter", "u1", 100)));
}

DP_STORE_SUITE_ON_EACH_BACKEND(MailSendStoreTest);

}  // namespace
}  // namespace dp
