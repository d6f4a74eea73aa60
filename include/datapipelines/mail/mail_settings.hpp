#pragma once
// The SMTP server this deployment mails its notices through, and what every message carries
// (configuration §3.27). Mail is on exactly when a host and a sender are both configured.
#include <chrono>
#include <string>
#include <vector>

#include "datapipelines/config/config.hpp"
#include "datapipelines/util/mailbox.hpp"

namespace dp {

struct MailSettings {
  std::string host{};
  int port = 587;
  std::string username{};  // empty: the server takes no credentials
  std::string password{};  // never logged, never in an error or an audit row
  bool starttls = true;    // required, not opportunistic
  Mailbox from{};
  Mailbox reply_to{};                        // the person users write back to; empty: from
  std::vector<std::string> ops_to{};         // the New user notice's recipients; empty: none
  std::string message_stream{};              // X-PM-Message-Stream when set
  std::string base_url{};                    // datapipelines.auth.base-url: links are built from it
  std::chrono::milliseconds timeout{30000};  // one deadline for a whole SMTP exchange

  bool Enabled() const { return !host.empty() && !from.address.empty(); }
  // From a validated configuration (its addresses parse).
  static MailSettings FromConfig(const Config& config);
};

}  // namespace dp
