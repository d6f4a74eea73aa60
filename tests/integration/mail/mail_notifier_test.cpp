// The notices against a real SMTP server (nodemailer's smtp-server on loopback, STARTTLS under
// a throwaway CA, AUTH required) and a real metadata store (SQLite): what arrives, what the
// claim row and the audit log say, that a claimed message never goes twice, that a refusal is
// recorded with the server's reply code, that a server without STARTTLS or with a certificate
// of an unknown CA is refused — and that the one-time password is in the message and nowhere
// else: not in mail_sends, not in the audit rows, not in the log.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>

#include "datapipelines/mail/mail_notifier.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/util/crypto.hpp"
#include "smtp_sink.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

using mail_test::DecodeQuotedPrintable;
using mail_test::SmtpSink;
namespace fs = std::filesystem;

constexpr const char* kSinkUser = "dp-mailer";
constexpr const char* kSinkPassword = "sink-Password-1";

class MailNotifierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string reason = mail_test::SinkUnavailableReason(); !reason.empty()) {
      if (test::ServicesRequired()) FAIL() << "the SMTP sink cannot run: " << reason;
      GTEST_SKIP() << "the SMTP sink cannot run: " << reason;
    }
    dir_ = fs::temp_directory_path() / ("dp_mail_test_" + NewUuid());
    fs::create_directories(dir_ / "certs");
    fs::create_directories(dir_ / "other");
    ASSERT_TRUE(mail_test::MakeThrowawayCa(dir_ / "certs", "dp-test-ca"));
    ASSERT_TRUE(mail_test::MakeThrowawayCa(dir_ / "other", "dp-other-ca"));
    // The client trusts the test's CA through the default verify paths, as it would trust a
    // system CA bundle.
    const char* previous = std::getenv("SSL_CERT_FILE");
    previous_cert_file_ = previous ? std::optional<std::string>(previous) : std::nullopt;
    ::setenv("SSL_CERT_FILE", (dir_ / "certs/dp-test-ca.pem").c_str(), 1);

    SmtpSink::Options options;
    options.cert_dir = dir_ / "certs";
    sink_ = std::make_unique<SmtpSink>(dir_ / "received", options);
    ASSERT_NE(sink_->port(), 0) << "the SMTP sink did not start";

    store_ = OpenMetadataStore("sqlite:" + (dir_ / "meta.db").string());
    store_->Migrate();
    sends_ = OpenMailSendStore(*store_);
    user_.id = NewUuid();
    user_.email = "ada@example.com";
    user_.display_name = "Ada";
    user_.created_at_ms = 1000;
    store_->Users().InsertUser(user_);

    captured_ = std::make_shared<std::ostringstream>();
    previous_logger_ = spdlog::default_logger();
    spdlog::set_default_logger(std::make_shared<spdlog::logger>(
        "mail_test", std::make_shared<spdlog::sinks::ostream_sink_mt>(*captured_)));
  }

  void TearDown() override {
    if (previous_logger_) spdlog::set_default_logger(previous_logger_);
    notifier_.reset();
    sends_.reset();
    store_.reset();
    sink_.reset();
    if (previous_cert_file_) {
      ::setenv("SSL_CERT_FILE", previous_cert_file_->c_str(), 1);
    } else {
      ::unsetenv("SSL_CERT_FILE");
    }
    std::error_code ignored;
    if (!dir_.empty()) fs::remove_all(dir_, ignored);
  }

  MailSettings Settings(int port) const {
    MailSettings settings;
    settings.host = "localhost";
    settings.port = port;
    settings.username = kSinkUser;
    settings.password = kSinkPassword;
    settings.from = Mailbox{"Data Team", "noreply@example.com"};
    settings.reply_to = Mailbox{"", "admin@example.com"};
    settings.ops_to = {"ops@example.com", "oncall@example.org"};
    settings.base_url = "https://dp.example.com";
    settings.timeout = std::chrono::seconds(10);
    return settings;
  }

  MailNotifier& Notifier(const MailSettings& settings) {
    notifier_ = std::make_unique<MailNotifier>(
        settings, *sends_, [this](AuditEvent event) { store_->Audit().AppendAudit(event); });
    return *notifier_;
  }
  MailNotifier& Notifier() { return Notifier(Settings(sink_->port())); }

  std::vector<AuditEvent> MailAudit() { return store_->Audit().ListAudit("mail.", 100); }

  // Everything the product kept about the sends: every column of every row, every audit row.
  std::string EverythingKept() {
    std::string kept;
    for (const auto& row : store_->Query("SELECT * FROM mail_sends", {})) {
      for (const auto& cell : row) kept += cell.value_or("") + "|";
    }
    for (const auto& event : store_->Audit().ListAudit("", 1000)) {
      kept += AuditLogView(event);
    }
    return kept;
  }
  static std::string AuditLogView(const AuditEvent& event) {
    return event.event + "|" + event.user_id + "|" + event.details.dump() + "\n";
  }

  fs::path dir_;
  std::optional<std::string> previous_cert_file_;
  std::unique_ptr<SmtpSink> sink_;
  std::unique_ptr<MetadataStore> store_;
  std::unique_ptr<MailSendStore> sends_;
  std::unique_ptr<MailNotifier> notifier_;
  User user_;
  std::shared_ptr<std::ostringstream> captured_;
  std::shared_ptr<spdlog::logger> previous_logger_;
};

TEST_F(MailNotifierTest, WelcomeMailArrivesOverVerifiedStartTlsWithTheOneTimePassword) {
  const std::string password = "Otp-" + RandomBase32(16);
  const MailOutcome outcome = Notifier().SendWelcome(user_, password);
  ASSERT_EQ(outcome.status, MailOutcomeStatus::kSent) << outcome.reason;
  EXPECT_EQ(outcome.recipient, "ada@example.com");

  const auto messages = sink_->Messages();
  ASSERT_EQ(messages.size(), 1u);
  const Json& received = messages[0];
  EXPECT_TRUE(received["secure"].get<bool>()) << "the message did not travel over STARTTLS";
  EXPECT_EQ(received["user"], kSinkUser);
  EXPECT_EQ(received["from"], "noreply@example.com");
  EXPECT_EQ(received["to"], Json::array({"ada@example.com"}));
  const std::string message = received["message"].get<std::string>();
  EXPECT_NE(message.find("Subject: Your datapipelines account\r\n"), std::string::npos);
  EXPECT_NE(message.find("Message-ID: " + outcome.message_id + "\r\n"), std::string::npos);
  EXPECT_NE(message.find("@example.com>"), std::string::npos);
  const std::string text = DecodeQuotedPrintable(message);
  // The positive control: the password DID reach the server.
  EXPECT_NE(text.find("One-time password: " + password), std::string::npos);
  EXPECT_NE(text.find("Sign in at: https://dp.example.com/ui/login"), std::string::npos);
  EXPECT_NE(text.find("Login: ada@example.com"), std::string::npos);
  EXPECT_NE(text.find("Your first sign-in asks you to choose a new password."), std::string::npos);

  const auto row = notifier_->LatestOf(user_.id, "welcome");
  ASSERT_TRUE(row);
  EXPECT_EQ(row->Status(), "sent");
  EXPECT_EQ(row->message_id, outcome.message_id);
  EXPECT_EQ(row->act_id, user_.id);
  EXPECT_GT(row->sent_at_ms, 0);
  const auto audit = MailAudit();
  ASSERT_EQ(audit.size(), 1u);
  EXPECT_EQ(audit[0].event, "mail.sent");
  EXPECT_EQ(audit[0].details["kind"], "welcome");
  EXPECT_EQ(audit[0].details["to"], "ada@example.com");
  EXPECT_EQ(audit[0].details["message_id"], outcome.message_id);

  // ...and nowhere else.
  const std::string log = captured_->str();
  EXPECT_NE(log.find("event=mail.sent kind=welcome recipient_domain=example.com"),
            std::string::npos);
  EXPECT_EQ(log.find(password), std::string::npos) << log;
  EXPECT_EQ(EverythingKept().find(password), std::string::npos) << EverythingKept();
  EXPECT_EQ(log.find(kSinkPassword), std::string::npos);
  EXPECT_EQ(EverythingKept().find(kSinkPassword), std::string::npos);
}

TEST_F(MailNotifierTest, AClaimedWelcomeIsNeverSentTwice) {
  ASSERT_EQ(Notifier().SendWelcome(user_, "first-Password").status, MailOutcomeStatus::kSent);
  const MailOutcome again = notifier_->SendWelcome(user_, "second-Password");
  EXPECT_EQ(again.status, MailOutcomeStatus::kAlreadyClaimed);
  EXPECT_EQ(sink_->Messages().size(), 1u);
  EXPECT_EQ(MailAudit().size(), 1u);
  // A second instance (another notifier over the same store) finds the claim too.
  MailNotifier other(Settings(sink_->port()), *sends_, {});
  EXPECT_EQ(other.SendWelcome(user_, "third-Password").status, MailOutcomeStatus::kAlreadyClaimed);
  EXPECT_EQ(sink_->Messages().size(), 1u);
}

TEST_F(MailNotifierTest, EachPasswordResetIsItsOwnMail) {
  ASSERT_EQ(Notifier().SendPasswordReset(user_, "reset-One-1", NewUuid()).status,
            MailOutcomeStatus::kSent);
  const std::string second = NewUuid();
  const MailOutcome outcome = notifier_->SendPasswordReset(user_, "reset-Two-2", second);
  ASSERT_EQ(outcome.status, MailOutcomeStatus::kSent) << outcome.reason;
  EXPECT_EQ(notifier_->SendPasswordReset(user_, "reset-Two-2", second).status,
            MailOutcomeStatus::kAlreadyClaimed);
  const auto messages = sink_->Messages();
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_NE(messages[1]["message"].get<std::string>().find(
                "Subject: Your datapipelines password was reset"),
            std::string::npos);
  EXPECT_NE(DecodeQuotedPrintable(messages[1]["message"].get<std::string>()).find("reset-Two-2"),
            std::string::npos);
  const auto latest = notifier_->LatestOf(user_.id, "password_reset");
  ASSERT_TRUE(latest);
  EXPECT_EQ(latest->act_id, second);
  EXPECT_EQ(latest->message_id, outcome.message_id);
}

TEST_F(MailNotifierTest, AWrongSmtpPasswordFailsWithTheReplyCodeRecordedAndAudited) {
  MailSettings settings = Settings(sink_->port());
  settings.password = "wrong-Smtp-Password";
  const std::string password = "Otp-" + RandomBase32(16);
  const MailOutcome outcome = Notifier(settings).SendWelcome(user_, password);
  ASSERT_EQ(outcome.status, MailOutcomeStatus::kFailed);
  EXPECT_EQ(outcome.reply_code, 535);
  EXPECT_NE(outcome.reason.find("535"), std::string::npos) << outcome.reason;
  EXPECT_TRUE(sink_->Messages().empty());

  const auto row = notifier_->LatestOf(user_.id, "welcome");
  ASSERT_TRUE(row);
  EXPECT_EQ(row->Status(), "failed");
  EXPECT_NE(row->error.find("535"), std::string::npos) << row->error;
  const auto audit = MailAudit();
  ASSERT_EQ(audit.size(), 1u);
  EXPECT_EQ(audit[0].event, "mail.failed");
  EXPECT_EQ(audit[0].details["kind"], "welcome");
  EXPECT_EQ(audit[0].details["to"], "ada@example.com");
  EXPECT_NE(audit[0].details["error"].get<std::string>().find("535"), std::string::npos);
  EXPECT_NE(captured_->str().find("event=mail.failed kind=welcome"), std::string::npos);

  for (const std::string& secret : {password, std::string("wrong-Smtp-Password")}) {
    EXPECT_EQ(outcome.reason.find(secret), std::string::npos);
    EXPECT_EQ(captured_->str().find(secret), std::string::npos) << captured_->str();
    EXPECT_EQ(EverythingKept().find(secret), std::string::npos) << EverythingKept();
  }
  // The claim stays: a failed password mail is answered with a new reset, never a resend.
  EXPECT_EQ(notifier_->SendWelcome(user_, password).status, MailOutcomeStatus::kAlreadyClaimed);
}

TEST_F(MailNotifierTest, AServerWithoutStartTlsIsRefusedWhenStartTlsIsRequired) {
  SmtpSink::Options without_tls;
  without_tls.starttls = false;
  SmtpSink plaintext(dir_ / "plaintext", without_tls);
  ASSERT_NE(plaintext.port(), 0);
  const MailOutcome outcome = Notifier(Settings(plaintext.port())).SendWelcome(user_, "Otp-x-1");
  ASSERT_EQ(outcome.status, MailOutcomeStatus::kFailed);
  EXPECT_EQ(outcome.reply_code, 0);
  EXPECT_NE(outcome.reason.find("does not offer STARTTLS"), std::string::npos) << outcome.reason;
  EXPECT_TRUE(plaintext.Messages().empty());
  EXPECT_EQ(notifier_->LatestOf(user_.id, "welcome")->Status(), "failed");
}

TEST_F(MailNotifierTest, ACertificateOfAnUnknownCaIsRefused) {
  ::setenv("SSL_CERT_FILE", (dir_ / "other/dp-other-ca.pem").c_str(), 1);
  const MailOutcome outcome = Notifier().SendWelcome(user_, "Otp-x-2");
  ASSERT_EQ(outcome.status, MailOutcomeStatus::kFailed);
  EXPECT_NE(outcome.reason.find("TLS handshake"), std::string::npos) << outcome.reason;
  EXPECT_TRUE(sink_->Messages().empty());
}

TEST_F(MailNotifierTest, AuthLoginIsUsedWhenPlainIsNotOffered) {
  SmtpSink::Options login_only;
  login_only.cert_dir = dir_ / "certs";
  login_only.auth_methods = "LOGIN";
  SmtpSink sink(dir_ / "login-only", login_only);
  ASSERT_NE(sink.port(), 0);
  const MailOutcome outcome = Notifier(Settings(sink.port())).SendWelcome(user_, "Otp-login-1");
  ASSERT_EQ(outcome.status, MailOutcomeStatus::kSent) << outcome.reason;
  ASSERT_EQ(sink.Messages().size(), 1u);
  EXPECT_EQ(sink.Messages()[0]["user"], kSinkUser);
}

TEST_F(MailNotifierTest, AServerThatNeverAnswersFailsAtTheDeadline) {
  mail_test::SilentListener silent;
  ASSERT_NE(silent.port(), 0);
  MailSettings settings = Settings(silent.port());
  settings.host = "127.0.0.1";
  settings.timeout = std::chrono::seconds(1);
  const auto started = std::chrono::steady_clock::now();
  const MailOutcome outcome = Notifier(settings).SendWelcome(user_, "Otp-silent-1");
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  ASSERT_EQ(outcome.status, MailOutcomeStatus::kFailed);
  EXPECT_NE(outcome.reason.find("timed out after 1 s"), std::string::npos) << outcome.reason;
  EXPECT_EQ(notifier_->LatestOf(user_.id, "welcome")->Status(), "failed");
}

TEST_F(MailNotifierTest, TheNewUserNoticeGoesToTheOperatorsWithoutAPassword) {
  NewUserNotice notice;
  notice.user_id = user_.id;
  notice.email = user_.email;
  notice.display_name = "Ada";
  notice.provider = "corp";
  notice.created_by = "self-service via corp";
  notice.workspace = "analytics";
  notice.created_at_ms = 1796673000000;
  Notifier().SendNewUser(notice);
  Notifier().SendNewUser(notice);  // once per account, ever
  const auto messages = sink_->Messages();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0]["to"], Json::array({"ops@example.com", "oncall@example.org"}));
  const std::string text = DecodeQuotedPrintable(messages[0]["message"].get<std::string>());
  EXPECT_NE(text.find("Subject: New user: ada@example.com (corp)"), std::string::npos);
  EXPECT_NE(text.find("Created by: self-service via corp"), std::string::npos);
  EXPECT_NE(text.find("https://dp.example.com/ui/admin/users"), std::string::npos);
  EXPECT_EQ(notifier_->LatestOf(user_.id, "new_user")->recipient,
            "ops@example.com,oncall@example.org");
}

TEST_F(MailNotifierTest, MailOffIsOneLogLineAndNothingClaimedOrAudited) {
  MailSettings off = Settings(sink_->port());
  off.host.clear();
  const MailOutcome outcome = Notifier(off).SendWelcome(user_, "Otp-off-1");
  EXPECT_EQ(outcome.status, MailOutcomeStatus::kSkipped);
  EXPECT_FALSE(notifier_->enabled());
  EXPECT_NE(captured_->str().find("event=mail.skipped kind=welcome recipient_domain=example.com"),
            std::string::npos)
      << captured_->str();
  EXPECT_EQ(captured_->str().find("Otp-off-1"), std::string::npos);
  EXPECT_FALSE(notifier_->LatestOf(user_.id, "welcome"));
  EXPECT_TRUE(MailAudit().empty());
  EXPECT_TRUE(sink_->Messages().empty());
}

}  // namespace
}  // namespace dp
