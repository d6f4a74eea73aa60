#pragma once
// The three notices' texts (auth.md §5A.8), built as plain strings: the welcome and the
// password-reset mail to a person (the sign-in link, the login, the one-time password, that the
// first sign-in asks for a new one, whom to write to), and the New user notice to the operators
// (never a password). Links are built from the configured base URL, never a request's origin.
// Every interpolated value is HTML-escaped in the HTML part.
#include <string>
#include <string_view>

#include "datapipelines/mail/mail_message.hpp"
#include "datapipelines/mail/mail_settings.hpp"
#include "datapipelines/mail/new_user_notice.hpp"
#include "datapipelines/store/user_store.hpp"

namespace dp {

enum class CredentialMailKind { kWelcome, kPasswordReset };

// From, Reply-To, subject and both bodies; the caller adds the Message-ID and the date.
MailMessage CredentialMail(const MailSettings& settings, CredentialMailKind kind, const User& user,
                           const std::string& one_time_password);
MailMessage NewUserMail(const MailSettings& settings, const NewUserNotice& notice);
// & < > " ' as entities.
std::string HtmlEscape(std::string_view text);

}  // namespace dp
