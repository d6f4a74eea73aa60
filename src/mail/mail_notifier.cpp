#include "datapipelines/mail/mail_notifier.hpp"

#include <spdlog/spdlog.h>

#include <utility>

#include "datapipelines/mail/mail_notices.hpp"
#include "datapipelines/mail/smtp_client.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

constexpr const char* kWelcomeKind = "welcome";
constexpr const char* kPasswordResetKind = "password_reset";
constexpr const char* kNewUserKind = "new_user";

std::string RecipientList(const std::vector<std::string>& recipients) {
  std::string joined;
  for (const auto& recipient : recipients) joined += (joined.empty() ? "" : ",") + recipient;
  return joined;
}

// What a log line may say about where a notice went: the domains, never the addresses.
std::string RecipientDomains(const std::vector<std::string>& recipients) {
  std::string joined;
  for (const auto& recipient : recipients) {
    joined += (joined.empty() ? "" : ",") + std::string(MailDomain(recipient));
  }
  return joined;
}

SmtpSettings SmtpSettingsOf(const MailSettings& settings) {
  SmtpSettings smtp;
  smtp.host = settings.host;
  smtp.port = settings.port;
  smtp.username = settings.username;
  smtp.password = settings.password;
  smtp.starttls = settings.starttls;
  const std::string_view domain = MailDomain(settings.from.address);
  smtp.helo_name = domain.empty() ? "localhost" : std::string(domain);
  smtp.timeout = settings.timeout;
  return smtp;
}

}  // namespace

const char* MailOutcome::StatusName() const {
  switch (status) {
    case MailOutcomeStatus::kSkipped:
      return "skipped";
    case MailOutcomeStatus::kSent:
      return "sent";
    case MailOutcomeStatus::kFailed:
      return "failed";
    case MailOutcomeStatus::kAlreadyClaimed:
      return "already_claimed";
  }
  return "failed";
}

MailNotifier::MailNotifier(MailSettings settings, MailSendStore& sends, AuditRecorder audit,
                           std::function<int64_t()> clock)
    : settings_(std::move(settings)),
      sends_(sends),
      audit_(std::move(audit)),
      clock_(std::move(clock)) {}

MailOutcome MailNotifier::SendWelcome(const User& user, const std::string& one_time_password) {
  return Deliver({kWelcomeKind, user.id, user.id, {user.email}}, [&] {
    return CredentialMail(settings_, CredentialMailKind::kWelcome, user, one_time_password);
  });
}

MailOutcome MailNotifier::SendPasswordReset(const User& user, const std::string& one_time_password,
                                            const std::string& reset_id) {
  return Deliver({kPasswordResetKind, user.id, reset_id, {user.email}}, [&] {
    return CredentialMail(settings_, CredentialMailKind::kPasswordReset, user, one_time_password);
  });
}

void MailNotifier::SendNewUser(const NewUserNotice& notice) {
  if (enabled() && settings_.ops_to.empty()) return;  // no operators' address: no notice
  Deliver({kNewUserKind, notice.user_id, notice.user_id, settings_.ops_to},
          [&] { return NewUserMail(settings_, notice); });
}

std::optional<MailSend> MailNotifier::LatestOf(const std::string& user_id,
                                               const std::string& kind) const {
  return sends_.LatestOf(user_id, kind);
}

MailOutcome MailNotifier::Deliver(const Claim& claim, const std::function<MailMessage()>& compose) {
  MailOutcome outcome;
  outcome.recipient = RecipientList(claim.recipients);
  if (!enabled()) {
    spdlog::info("event=mail.skipped kind={} recipient_domain={}", claim.kind,
                 RecipientDomains(claim.recipients));
    return outcome;
  }
  MailSend row;
  row.id = NewUuid();
  row.user_id = claim.user_id;
  row.kind = claim.kind;
  row.act_id = claim.act_id;
  row.recipient = outcome.recipient;
  row.claimed_at_ms = Now();
  try {
    if (!sends_.TryClaim(row)) {
      spdlog::info("event=mail.already_claimed kind={} recipient_domain={}", claim.kind,
                   RecipientDomains(claim.recipients));
      outcome.status = MailOutcomeStatus::kAlreadyClaimed;
      return outcome;
    }
  } catch (const std::exception& e) {
    // Unclaimed means unsent: a mail that might go twice is not sent at all.
    spdlog::error("event=mail.failed kind={} recipient_domain={} error=\"the claim failed: {}\"",
                  claim.kind, RecipientDomains(claim.recipients), e.what());
    outcome.status = MailOutcomeStatus::kFailed;
    outcome.reason = "the mail could not be recorded in the metadata store";
    return outcome;
  }
  // Composed only now, for the one call that won the claim: the one-time password goes into
  // this message and nowhere else.
  return Transmit(row, compose());
}

MailOutcome MailNotifier::Transmit(const MailSend& row, MailMessage message) {
  MailOutcome outcome;
  outcome.recipient = row.recipient;
  message.date_ms = Now();
  message.message_id =
      "<" + NewUuid() + "@" + std::string(MailDomain(settings_.from.address)) + ">";
  const std::string domains = RecipientDomains(message.to);
  try {
    SmtpClient(SmtpSettingsOf(settings_))
        .Send(SmtpEnvelope{settings_.from.address, message.to, message.Render()});
  } catch (const std::exception& e) {
    const auto* refusal = dynamic_cast<const SmtpError*>(&e);
    outcome.status = MailOutcomeStatus::kFailed;
    outcome.reason = e.what();
    outcome.reply_code = refusal ? refusal->reply_code() : 0;
    spdlog::warn("event=mail.failed kind={} recipient_domain={} error=\"{}\"", row.kind, domains,
                 outcome.reason);
    try {
      sends_.MarkFailed(row.id, outcome.reason);
    } catch (const std::exception& store_error) {
      spdlog::error("event=mail.failed kind={} the claim could not be stamped: {}", row.kind,
                    store_error.what());
    }
    Audit("mail.failed", row, "error", outcome.reason);
    return outcome;
  }
  outcome.status = MailOutcomeStatus::kSent;
  outcome.message_id = message.message_id;
  spdlog::info("event=mail.sent kind={} recipient_domain={} message_id={}", row.kind, domains,
               message.message_id);
  try {
    sends_.MarkSent(row.id, Now(), message.message_id);
  } catch (const std::exception& store_error) {
    spdlog::error("event=mail.sent kind={} the claim could not be stamped: {}", row.kind,
                  store_error.what());
  }
  Audit("mail.sent", row, "message_id", message.message_id);
  return outcome;
}

void MailNotifier::Audit(const char* event, const MailSend& row, const std::string& outcome_key,
                         const std::string& outcome_value) {
  if (!audit_) return;
  AuditEvent record;
  record.timestamp_ms = Now();
  record.event = event;
  record.user_id = row.user_id;
  record.details = Json{{"kind", row.kind},
                        {"to", row.recipient},
                        {"act_id", row.act_id},
                        {outcome_key, outcome_value}};
  try {
    audit_(std::move(record));
  } catch (const std::exception& e) {
    spdlog::error("event={} kind={} the audit row could not be written: {}", event, row.kind,
                  e.what());
  }
}

int64_t MailNotifier::Now() const { return clock_ ? clock_() : NowMs(); }

}  // namespace dp
