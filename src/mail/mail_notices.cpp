#include "datapipelines/mail/mail_notices.hpp"

#include <utility>
#include <vector>

#include "datapipelines/util/clock.hpp"

namespace dp {
namespace {

// One "Label: value" line of a notice, shown in both parts.
struct NoticeField {
  std::string label;
  std::string value;
  bool link = false;
};

// The text and HTML parts of one notice from the same paragraphs and fields, so the two
// never say different things.
struct NoticeBody {
  std::string greeting{};
  std::string opening{};
  std::vector<NoticeField> fields{};
  std::vector<std::string> closing{};

  std::string Text() const {
    std::string out;
    if (!greeting.empty()) out += greeting + "\n\n";
    out += opening + "\n\n";
    for (const auto& field : fields) out += field.label + ": " + field.value + "\n";
    for (const auto& paragraph : closing) out += "\n" + paragraph + "\n";
    return out;
  }

  std::string Html() const {
    std::string out = "<!DOCTYPE html>\n<html><body style=\"font-family: sans-serif\">\n";
    if (!greeting.empty()) out += "<p>" + HtmlEscape(greeting) + "</p>\n";
    out += "<p>" + HtmlEscape(opening) + "</p>\n<table>\n";
    for (const auto& field : fields) {
      const std::string value = HtmlEscape(field.value);
      out += "<tr><td>" + HtmlEscape(field.label) + ":</td><td>" +
             (field.link ? "<a href=\"" + value + "\">" + value + "</a>" : "<b>" + value + "</b>") +
             "</td></tr>\n";
    }
    out += "</table>\n";
    for (const auto& paragraph : closing) out += "<p>" + HtmlEscape(paragraph) + "</p>\n";
    out += "</body></html>\n";
    return out;
  }
};

MailMessage NoticeMessage(const MailSettings& settings, std::vector<std::string> to,
                          std::string subject, const NoticeBody& body) {
  MailMessage message;
  message.from = settings.from;
  message.to = std::move(to);
  message.reply_to = settings.reply_to.address.empty() ? settings.from : settings.reply_to;
  message.subject = std::move(subject);
  message.text_body = body.Text();
  message.html_body = body.Html();
  message.message_stream = settings.message_stream;
  return message;
}

}  // namespace

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

MailMessage CredentialMail(const MailSettings& settings, CredentialMailKind kind, const User& user,
                           const std::string& one_time_password) {
  const bool welcome = kind == CredentialMailKind::kWelcome;
  const Mailbox& human = settings.reply_to.address.empty() ? settings.from : settings.reply_to;
  NoticeBody body;
  body.greeting = "Hello " + (user.display_name.empty() ? user.email : user.display_name) + ",";
  body.opening = welcome ? "An administrator created a datapipelines account for you."
                         : "An administrator reset your datapipelines password.";
  body.fields = {{"Sign in at", settings.base_url + "/ui/login", true},
                 {"Login", user.email},
                 {"One-time password", one_time_password}};
  body.closing = {"Your first sign-in asks you to choose a new password.",
                  "Questions? Reply to this message to reach " + human.address + "."};
  return NoticeMessage(
      settings, {user.email},
      welcome ? "Your datapipelines account" : "Your datapipelines password was reset", body);
}

MailMessage NewUserMail(const MailSettings& settings, const NewUserNotice& notice) {
  NoticeBody body;
  body.opening = "A datapipelines account was created.";
  body.fields.push_back({"E-mail", notice.email});
  if (!notice.display_name.empty()) body.fields.push_back({"Display name", notice.display_name});
  body.fields.push_back({"Provider", notice.provider});
  body.fields.push_back({"Created by", notice.created_by});
  body.fields.push_back({"Workspace", notice.workspace.empty() ? "(none)" : notice.workspace});
  body.fields.push_back({"Time", FormatIso8601Ms(notice.created_at_ms)});
  body.fields.push_back({"Users", settings.base_url + "/ui/admin/users", true});
  return NoticeMessage(settings, settings.ops_to,
                       "New user: " + notice.email + " (" + notice.provider + ")", body);
}

}  // namespace dp
