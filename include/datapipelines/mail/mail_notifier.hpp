#pragma once
// Mails the notices of auth.md §5A.8: the welcome and password-reset mails to a person (the
// one-time password's only way out of the product when mail is on) and the New user notice to
// the operators. Each message is claimed in mail_sends before it is sent — a claim that exists
// already means another call sent it, and nothing goes twice — then sent, then stamped and
// audited (`mail.sent` / `mail.failed`: kind and recipients, never a body or a password). With
// mail off every notice is one INFO line (`event=mail.skipped`) and nothing is claimed or
// audited. Every call blocks on the metadata store and the SMTP server: call it from the
// blocking pool. Thread-safe.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/mail/mail_message.hpp"
#include "datapipelines/mail/mail_outcome.hpp"
#include "datapipelines/mail/mail_settings.hpp"
#include "datapipelines/mail/new_user_notice.hpp"
#include "datapipelines/store/audit_sink.hpp"
#include "datapipelines/store/mail_send_store.hpp"
#include "datapipelines/store/user_store.hpp"

namespace dp {

class MailNotifier {
 public:
  // Where audit rows go: the application passes AuditLog::Record (bounded, queued, never
  // throws); a test may append to an AuditSink directly.
  using AuditRecorder = std::function<void(AuditEvent)>;

  // clock: epoch ms; empty = NowMs.
  MailNotifier(MailSettings settings, MailSendStore& sends, AuditRecorder audit,
               std::function<int64_t()> clock = {});

  // Host and sender are configured.
  bool enabled() const { return settings_.Enabled(); }

  // To the new local account's person: once per account, ever.
  MailOutcome SendWelcome(const User& user, const std::string& one_time_password);
  // To the person whose password an administrator reset; `reset_id` names this reset (two
  // resets are two credentials and two mails).
  MailOutcome SendPasswordReset(const User& user, const std::string& one_time_password,
                                const std::string& reset_id);
  // To datapipelines.mail.ops-to (nothing when it is empty): once per account, ever.
  void SendNewUser(const NewUserNotice& notice);

  // The newest claim of `kind` for the user, for the admin screen; nullopt when none.
  std::optional<MailSend> LatestOf(const std::string& user_id, const std::string& kind) const;

 private:
  struct Claim {
    std::string kind;
    std::string user_id;
    std::string act_id;
    std::vector<std::string> recipients;
  };
  // Claims, then composes and sends; composes nothing when mail is off or the claim is lost.
  MailOutcome Deliver(const Claim& claim, const std::function<MailMessage()>& compose);
  MailOutcome Transmit(const MailSend& row, MailMessage message);
  void Audit(const char* event, const MailSend& row, const std::string& outcome_key,
             const std::string& outcome_value);
  int64_t Now() const;

  MailSettings settings_;
  MailSendStore& sends_;
  AuditRecorder audit_;
  std::function<int64_t()> clock_;
};

}  // namespace dp
