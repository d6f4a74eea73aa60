#pragma once
// What became of one notice, for the caller to show an administrator: skipped (mail is not
// configured), sent (the SMTP server accepted it), failed (with a reason safe to show: the
// server's reply or the transport's failure, never the body), or already claimed (this message
// was claimed before — by a retry, a double submit or another instance — so nothing was sent).
#include <string>

namespace dp {

enum class MailOutcomeStatus { kSkipped, kSent, kFailed, kAlreadyClaimed };

struct MailOutcome {
  MailOutcomeStatus status = MailOutcomeStatus::kSkipped;
  std::string recipient{};   // the To list, as sent or as it would have been
  std::string message_id{};  // sent: the Message-ID it went out under
  std::string reason{};      // failed: why, in words an administrator may read
  int reply_code = 0;        // failed: the SMTP server's reply code, 0 when there was none

  bool sent() const { return status == MailOutcomeStatus::kSent; }
  // "skipped" | "sent" | "failed" | "already_claimed"
  const char* StatusName() const;
};

}  // namespace dp
