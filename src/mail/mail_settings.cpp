#include "datapipelines/mail/mail_settings.hpp"

namespace dp {

MailSettings MailSettings::FromConfig(const Config& config) {
  MailSettings settings;
  settings.host = config.mail_host;
  settings.port = config.mail_port;
  settings.username = config.mail_username;
  settings.password = config.mail_password;
  settings.starttls = config.mail_starttls;
  settings.from = ParseMailbox(config.mail_from).value_or(Mailbox{});
  settings.reply_to = ParseMailbox(config.mail_reply_to).value_or(Mailbox{});
  settings.ops_to = config.mail_ops_to;
  settings.message_stream = config.mail_message_stream;
  settings.base_url = config.auth_base_url;
  return settings;
}

}  // namespace dp
