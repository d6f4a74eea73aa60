#include "datapipelines/service/identity/local_admin_seed.hpp"

#include "datapipelines/service/identity/account_rules.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

constexpr const char* kSeededEvent = "auth.password.seeded";

// The address an earlier start seeded, read back from the audit trail; empty when none did.
std::string EarlierSeededEmail(const AuthRecords& records) {
  records.audit_log().Flush();
  AuditLog::Page page = records.audit_log().Read(0, kSeededEvent, 0, 1);
  for (const AuditEvent& event : page.rows) {
    if (event.event == kSeededEvent) return event.details.value("email", "");
  }
  return "";
}

}  // namespace

LocalAdminSeedResult SeedLocalAdmin(const AuthRecords& records, const LocalAdminSeed& seed) {
  const std::string email = NormalizeEmail(seed.email);
  if (auto existing = records.users().FindUserByEmail(email)) {
    return {existing->must_change_password ? LocalAdminSeedOutcome::kPending
                                           : LocalAdminSeedOutcome::kSettled,
            ""};
  }
  if (std::string seeded = EarlierSeededEmail(records); !seeded.empty()) {
    return {LocalAdminSeedOutcome::kEmailMismatch, seeded};
  }
  User admin{
      NewUuid(),
      email,
      "Administrator",
      seed.password_hash.empty() ? records.hasher().HashSecret(seed.password) : seed.password_hash,
      true,
      true,
      records.Now()};
  admin.provider = "bootstrap";
  admin.must_change_password = true;
  records.users().InsertUser(admin);
  records.Audit("auth.user.created", admin.id, "", "", "",
                {{"email", email}, {"provider", "bootstrap"}, {"actor", "configuration"}});
  records.Audit("auth.user.admin_granted", admin.id, "", "", "",
                {{"email", email}, {"actor", "bootstrap"}});
  records.Audit(
      kSeededEvent, admin.id, "", "", "",
      {{"email", email}, {"form", seed.password_hash.empty() ? "plaintext" : "argon2id_hash"}});
  return {LocalAdminSeedOutcome::kSeeded, ""};
}

}  // namespace dp
