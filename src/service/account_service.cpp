#include "datapipelines/service/account_service.hpp"

#include "datapipelines/auth/account_rules.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/service/audit_log.hpp"
#include "datapipelines/service/auth_service.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/util/clock.hpp"

namespace dp {

void AccountService::ChangePassword(const Principal& principal, const std::string& current_password,
                                    const std::string& new_password) {
  if (!principal.via_session) {
    throw DomainError(errc::kSessionInvalid, "Only a signed-in person changes a password.");
  }
  auto user = store_.FindUserById(principal.user_id);
  if (!user || user->password_hash.empty() ||
      !auth_.hasher().VerifySecret(user->password_hash, current_password)) {
    throw DomainError(errc::kLoginInvalid, "The current password is not right.",
                      Json{{"field", "current_password"}});
  }
  if (Utf8Length(new_password) < kMinPasswordChars) {
    throw DomainError(errc::kUserPasswordWeak, "The new password must be at least 12 characters.",
                      Json{{"field", "new_password"}, {"min_length", kMinPasswordChars}});
  }
  store_.SetUserPasswordHash(user->id, auth_.hasher().HashSecret(new_password));
  AuditEvent event;
  event.timestamp_ms = NowMs();
  event.event = "auth.password.changed";
  event.user_id = user->id;
  event.workspace_id = principal.workspace_id;
  event.details = Json{{"via", "ui"}};
  audit_.Record(std::move(event));
}

}  // namespace dp
