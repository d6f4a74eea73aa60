#pragma once
// The claim row behind every notice the product mails (metadata-db §4.19): one row per message
// identity (user, kind, act), inserted before the SMTP server is touched. Whoever inserts the
// row sends; a retry, a double submit or a second instance finds it and does not, so a mail
// carrying a one-time password never goes twice. A row proves an attempt, not a delivery, and
// never holds a body. Every call blocks: run it on the blocking pool.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace dp {

class MetadataStore;

struct MailSend {
  std::string id{};
  std::string user_id{};
  std::string kind{};       // welcome | password_reset | new_user
  std::string act_id{};     // the user's own id for welcome and new_user; one per reset
  std::string recipient{};  // the To list as sent (a comma list for the operators' notice)
  int64_t claimed_at_ms = 0;
  int64_t sent_at_ms = 0;  // 0: not accepted by the server (yet)
  std::string message_id{};
  std::string error{};  // the server's refusal or the transport failure; never a body

  // Derived, never stored: neither stamp = pending, sent_at = sent, error = failed.
  std::string Status() const;
};

class MailSendStore {
 public:
  virtual ~MailSendStore() = default;
  // Inserts the claim unless (user_id, kind, act_id) is claimed already; true when this call
  // inserted it (and so must send).
  virtual bool TryClaim(const MailSend& claim) = 0;
  virtual void MarkSent(const std::string& id, int64_t sent_at_ms,
                        const std::string& message_id) = 0;
  virtual void MarkFailed(const std::string& id, const std::string& error) = 0;
  // The newest claim of that kind for the user (by claimed_at), for the admin screen.
  virtual std::optional<MailSend> LatestOf(const std::string& user_id, const std::string& kind) = 0;
};

// The SQL adapter over the metadata store's own connection (SQLite or PostgreSQL).
std::unique_ptr<MailSendStore> OpenMailSendStore(MetadataStore& metadata);

}  // namespace dp
