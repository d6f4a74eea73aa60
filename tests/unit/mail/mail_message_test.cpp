// The message a notice becomes, byte for byte where it matters: headers, the encoded subject,
// quoted-printable bodies, the HTML escaping of every interpolated value, and the DATA phase's
// dot-stuffing.
#include "datapipelines/mail/mail_message.hpp"

#include <gtest/gtest.h>

#include "datapipelines/mail/mail_notices.hpp"
#include "datapipelines/mail/smtp_client.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

MailSettings TestMailSettings() {
  MailSettings settings;
  settings.host = "smtp.example.com";
  settings.from = Mailbox{"Data Team", "noreply@example.com"};
  settings.reply_to = Mailbox{"", "admin@example.com"};
  settings.ops_to = {"ops@example.com", "oncall@example.org"};
  settings.base_url = "https://dp.example.com";
  return settings;
}

User TestUser() {
  User user;
  user.id = "0b5b2f3e-1111-4aaa-8bbb-123456789abc";
  user.email = "ada@example.com";
  user.display_name = "Ada <Lovelace> & \"Co\"";
  return user;
}

// The header block of a rendered message (up to the first empty line).
std::string HeaderBlock(const std::string& message) {
  return message.substr(0, message.find("\r\n\r\n") + 2);
}

// Quoted-printable back to text (soft breaks removed, =XX decoded).
std::string DecodeQuotedPrintable(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '=') {
      out.push_back(text[i]);
    } else if (text.substr(i + 1, 2) == "\r\n") {
      i += 2;
    } else {
      out.push_back(static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    }
  }
  return out;
}

TEST(MailMessageTest, HeadersAreThoseOfAMultipartAlternativeMessage) {
  MailMessage message =
      CredentialMail(TestMailSettings(), CredentialMailKind::kWelcome, TestUser(), "Otp-123");
  message.message_id = "<abc@example.com>";
  message.date_ms = 1796673000000;  // 2026-12-07T19:50:00Z
  message.message_stream = "outbound";
  const std::string headers = HeaderBlock(message.Render());
  EXPECT_NE(headers.find("From: Data Team <noreply@example.com>\r\n"), std::string::npos);
  EXPECT_NE(headers.find("To: ada@example.com\r\n"), std::string::npos);
  EXPECT_NE(headers.find("Reply-To: admin@example.com\r\n"), std::string::npos);
  EXPECT_NE(headers.find("Subject: Your datapipelines account\r\n"), std::string::npos);
  EXPECT_NE(headers.find("Date: Mon, 07 Dec 2026 19:50:00 +0000\r\n"), std::string::npos);
  EXPECT_NE(headers.find("Message-ID: <abc@example.com>\r\n"), std::string::npos);
  EXPECT_NE(headers.find("MIME-Version: 1.0\r\n"), std::string::npos);
  EXPECT_NE(headers.find("X-PM-Message-Stream: outbound\r\n"), std::string::npos);
  EXPECT_NE(headers.find("Content-Type: multipart/alternative; boundary="), std::string::npos);
  message.message_stream.clear();
  EXPECT_EQ(message.Render().find("X-PM-Message-Stream"), std::string::npos);
}

TEST(MailMessageTest, BothPartsAreUtf8QuotedPrintable) {
  MailMessage message =
      CredentialMail(TestMailSettings(), CredentialMailKind::kPasswordReset, TestUser(), "Otp-123");
  message.message_id = "<abc@example.com>";
  const std::string rendered = message.Render();
  EXPECT_NE(rendered.find("Content-Type: text/plain; charset=UTF-8\r\n"
                          "Content-Transfer-Encoding: quoted-printable\r\n"),
            std::string::npos);
  EXPECT_NE(rendered.find("Content-Type: text/html; charset=UTF-8\r\n"
                          "Content-Transfer-Encoding: quoted-printable\r\n"),
            std::string::npos);
  // Every line ends CRLF and fits 78 characters (RFC 5322 §2.1.1; body lines 76, RFC 2045).
  std::size_t start = 0;
  while (start < rendered.size()) {
    const std::size_t end = rendered.find("\r\n", start);
    ASSERT_NE(end, std::string::npos) << "a line without CRLF";
    EXPECT_LE(end - start, 78u) << rendered.substr(start, end - start);
    EXPECT_EQ(rendered.substr(start, end - start).find('\n'), std::string::npos);
    start = end + 2;
  }
}

TEST(MailMessageTest, NonAsciiSubjectAndDisplayNameAreEncodedWords) {
  EXPECT_EQ(EncodeHeaderText("Plain subject"), "Plain subject");
  const std::string encoded = EncodeHeaderText("Nouvel utilisateur: José (société)");
  EXPECT_EQ(encoded.rfind("=?UTF-8?B?", 0), 0u);
  EXPECT_EQ(encoded.find("José"), std::string::npos);
  // Decoding the words gives the subject back.
  std::string decoded;
  std::size_t at = 0;
  while ((at = encoded.find("=?UTF-8?B?", at)) != std::string::npos) {
    const std::size_t end = encoded.find("?=", at + 10);
    decoded += Base64Decode(encoded.substr(at + 10, end - at - 10));
    at = end + 2;
  }
  EXPECT_EQ(decoded, "Nouvel utilisateur: José (société)");
  // A long subject is folded into words of at most 75 characters, none splitting a character.
  const std::string long_subject = EncodeHeaderText(std::string(40, 'x') + "ééééééééééééééééé");
  for (std::size_t line = 0, next; line < long_subject.size(); line = next + 3) {
    next = long_subject.find("\r\n ", line);
    if (next == std::string::npos) next = long_subject.size();
    EXPECT_LE(next - line, 75u);
  }
  EXPECT_EQ(FormatMailbox(Mailbox{"Équipe données", "noreply@example.com"}).rfind("=?UTF-8?B?", 0),
            0u);
  EXPECT_EQ(FormatMailbox(Mailbox{"Data, Inc.", "a@example.com"}),
            "\"Data, Inc.\" <a@example.com>");
}

TEST(MailMessageTest, QuotedPrintableEncodesWhatTransitWouldAlter) {
  EXPECT_EQ(QuotedPrintable("a=b"), "a=3Db");
  EXPECT_EQ(QuotedPrintable("é"), "=C3=A9");
  EXPECT_EQ(QuotedPrintable("trailing \nnext"), "trailing=20\r\nnext");
  EXPECT_EQ(QuotedPrintable("one\ntwo\n"), "one\r\ntwo\r\n");
  const std::string long_line(200, 'a');
  const std::string encoded = QuotedPrintable(long_line);
  EXPECT_EQ(DecodeQuotedPrintable(encoded), long_line);
  EXPECT_NE(encoded.find("=\r\n"), std::string::npos);
  for (std::size_t start = 0, end; start < encoded.size(); start = end + 2) {
    end = std::min(encoded.find("\r\n", start), encoded.size());
    EXPECT_LE(end - start, 76u);
  }
}

TEST(MailMessageTest, HtmlEscapesEveryInterpolatedValue) {
  EXPECT_EQ(HtmlEscape("<a href=\"x\">&'</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
  NewUserNotice notice;
  notice.user_id = "u1";
  notice.email = "eve@example.com";
  notice.display_name = "<script>alert(1)</script>";
  notice.provider = "corp";
  notice.created_by = "self-service via corp";
  notice.workspace = "a&b";
  notice.created_at_ms = 1796673000000;
  const MailMessage message = NewUserMail(TestMailSettings(), notice);
  EXPECT_EQ(message.html_body.find("<script>"), std::string::npos);
  EXPECT_NE(message.html_body.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(message.html_body.find("a&amp;b"), std::string::npos);
  // The text part says the same, unescaped.
  EXPECT_NE(message.text_body.find("Display name: <script>alert(1)</script>\n"), std::string::npos);
}

TEST(MailMessageTest, WelcomeCarriesTheSignInLinkLoginAndOneTimePassword) {
  const MailMessage message =
      CredentialMail(TestMailSettings(), CredentialMailKind::kWelcome, TestUser(), "Otp-123");
  EXPECT_EQ(message.subject, "Your datapipelines account");
  EXPECT_EQ(message.to, std::vector<std::string>{"ada@example.com"});
  EXPECT_EQ(message.reply_to.address, "admin@example.com");
  for (const std::string* body : {&message.text_body, &message.html_body}) {
    EXPECT_NE(body->find("https://dp.example.com/ui/login"), std::string::npos);
    EXPECT_NE(body->find("ada@example.com"), std::string::npos);
    EXPECT_NE(body->find("Otp-123"), std::string::npos);
    EXPECT_NE(body->find("Your first sign-in asks you to choose a new password."),
              std::string::npos);
    EXPECT_NE(body->find("admin@example.com"), std::string::npos);
  }
  EXPECT_EQ(CredentialMail(TestMailSettings(), CredentialMailKind::kPasswordReset, TestUser(), "x")
                .subject,
            "Your datapipelines password was reset");
}

TEST(MailMessageTest, NewUserNoticeGoesToTheOperatorsWithoutAPassword) {
  NewUserNotice notice;
  notice.user_id = "u1";
  notice.email = "bob@example.com";
  notice.provider = "local";
  notice.created_by = "admin@example.com";
  notice.workspace = "analytics";
  notice.created_at_ms = 1796673000000;
  const MailMessage message = NewUserMail(TestMailSettings(), notice);
  EXPECT_EQ(message.subject, "New user: bob@example.com (local)");
  EXPECT_EQ(message.to, (std::vector<std::string>{"ops@example.com", "oncall@example.org"}));
  EXPECT_NE(message.text_body.find("Created by: admin@example.com\n"), std::string::npos);
  EXPECT_NE(message.text_body.find("Workspace: analytics\n"), std::string::npos);
  EXPECT_NE(message.text_body.find("Time: 2026-12-07T19:50:00.000Z\n"), std::string::npos);
  EXPECT_NE(message.text_body.find("https://dp.example.com/ui/admin/users"), std::string::npos);
  EXPECT_EQ(message.text_body.find("Display name"), std::string::npos);  // none was given
  EXPECT_EQ(message.text_body.find("password"), std::string::npos);
}

TEST(SmtpDataPayloadTest, DotStuffsAndNormalisesLineEnds) {
  EXPECT_EQ(SmtpClient::DataPayload("a\n.b\r\n..c\rd"), "a\r\n..b\r\n...c\r\nd\r\n.\r\n");
  EXPECT_EQ(SmtpClient::DataPayload(".\n"), "..\r\n.\r\n");
  EXPECT_EQ(SmtpClient::DataPayload("done\r\n"), "done\r\n.\r\n");
  EXPECT_EQ(SmtpClient::DataPayload("mid.dle\n"), "mid.dle\r\n.\r\n");
}

}  // namespace
}  // namespace dp
