#include "datapipelines/service/identity/auth_records.hpp"

#include <algorithm>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/service/identity/account_rules.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {

AuthRecords::AuthRecords(UserStore& users, WorkspaceStore& workspaces, CredentialStore& credentials,
                         AuditLog& audit, Argon2Params hasher, std::function<int64_t()> clock)
    : users_(users),
      workspaces_(workspaces),
      credentials_(credentials),
      audit_(audit),
      hasher_(hasher),
      clock_(std::move(clock)) {}

int64_t AuthRecords::Now() const { return clock_ ? clock_() : NowMs(); }

User AuthRecords::RequireUser(const std::string& email) const {
  const std::string normalized = NormalizeEmail(email);
  auto user = users_.FindUserByEmail(normalized);
  if (!user) throw DomainError(errc::kUserNotFound, "no such user", {{"email", normalized}});
  return *user;
}

Workspace AuthRecords::RequireWorkspace(const std::string& name) const {
  auto workspace = workspaces_.FindWorkspaceByName(name);
  if (!workspace) {
    throw DomainError(errc::kWorkspaceNotFound, "no such workspace", {{"workspace", name}});
  }
  return *workspace;
}

std::optional<MemberFlags> AuthRecords::CurrentFlags(const std::string& workspace_id,
                                                     const std::string& user_id) const {
  if (workspace_id.empty()) return std::nullopt;
  auto membership = workspaces_.FindMembership(workspace_id, user_id);
  if (!membership) return std::nullopt;
  return membership->flags;
}

void AuthRecords::Audit(std::string event, const std::string& user_id, const std::string& key_id,
                        const std::string& workspace_id, std::string_view source_ip,
                        Json details) const {
  AuditEvent record;
  record.timestamp_ms = Now();
  record.event = std::move(event);
  record.user_id = user_id;
  record.key_id = key_id;
  record.workspace_id = workspace_id;
  record.source_ip = std::string(source_ip);
  record.details = std::move(details);
  audit_.Record(std::move(record));
}

User WithoutSecret(User user) {
  user.password_hash.clear();
  return user;
}

ApiKeyRecord WithoutSecret(ApiKeyRecord key) {
  key.key_hash.clear();
  key.key_check.clear();
  return key;
}

bool IsExpired(const std::optional<int64_t>& expires_at_ms, int64_t now_ms) {
  return expires_at_ms && *expires_at_ms <= now_ms;
}

}  // namespace dp
