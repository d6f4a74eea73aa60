// Mail claims (migration 0014), written once in the portable SQL subset.
#include <memory>
#include <string>

#include "datapipelines/store/mail_send_store.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "sql_cells.hpp"

namespace dp {
namespace {

using sql_cells::First;
using sql_cells::Int;
using sql_cells::NullIfEmpty;
using sql_cells::Select;
using sql_cells::Text;

constexpr const char* kMailSendColumns =
    "id, user_id, kind, act_id, recipient, claimed_at_ms, sent_at_ms, message_id, error";

MailSend ToMailSend(const SqlRow& r) {
  return MailSend{Text(r, 0), Text(r, 1), Text(r, 2), Text(r, 3), Text(r, 4),
                  Int(r, 5),  Int(r, 6),  Text(r, 7), Text(r, 8)};
}

class SqlMailSendStore final : public MailSendStore {
 public:
  explicit SqlMailSendStore(SqlExecutor& sql) : sql_(sql) {}

  bool TryClaim(const MailSend& c) override {
    // ON CONFLICT DO NOTHING: of two callers racing for one message, one inserts the row.
    return sql_.Execute(std::string("INSERT INTO mail_sends (id, user_id, kind, act_id, "
                                    "recipient, claimed_at_ms) VALUES ($1, $2, $3, $4, $5, $6) "
                                    "ON CONFLICT (user_id, kind, act_id) DO NOTHING"),
                        {c.id, c.user_id, c.kind, c.act_id, c.recipient, c.claimed_at_ms}) == 1;
  }

  void MarkSent(const std::string& id, int64_t sent_at_ms, const std::string& message_id) override {
    sql_.Execute(
        "UPDATE mail_sends SET sent_at_ms = $2, message_id = $3, error = NULL WHERE id = $1",
        {id, sent_at_ms, message_id});
  }

  void MarkFailed(const std::string& id, const std::string& error) override {
    sql_.Execute("UPDATE mail_sends SET error = $2 WHERE id = $1", {id, NullIfEmpty(error)});
  }

  std::optional<MailSend> LatestOf(const std::string& user_id, const std::string& kind) override {
    return First(sql_.Query(Select(kMailSendColumns,
                                   "FROM mail_sends WHERE user_id = $1 AND kind = $2 "
                                   "ORDER BY claimed_at_ms DESC, id DESC LIMIT 1"),
                            {user_id, kind}),
                 &ToMailSend);
  }

 private:
  SqlExecutor& sql_;
};

}  // namespace

std::string MailSend::Status() const {
  if (sent_at_ms != 0) return "sent";
  if (!error.empty()) return "failed";
  return "pending";
}

std::unique_ptr<MailSendStore> OpenMailSendStore(MetadataStore& metadata) {
  return std::make_unique<SqlMailSendStore>(metadata);
}

}  // namespace dp
