#pragma once
// The store → audit → auth chain most service and dispatcher tests start from: a migrated
// in-memory SQLite metadata store and Argon2 at its cheapest, so a test pays microseconds,
// not the production 19 MiB hash.
#include <memory>
#include <string>

#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/store/metadata_store.hpp"

namespace dp::test {

inline AuthOptions CheapAuthOptions() {
  AuthOptions options;
  options.hasher = Argon2Params{.time_cost = 1, .memory_kib = 1024, .parallelism = 1};
  // Tests log in often from one address; the dampers have their own tests.
  options.login_throttle.per_address_per_minute = 1000000;
  return options;
}

// Fills the three members a fixture keeps; `options` usually starts from CheapAuthOptions().
// `metadata_url` defaults to a private in-memory SQLite database.
inline void OpenCoreStack(std::unique_ptr<MetadataStore>& store, std::unique_ptr<AuditLog>& audit,
                          std::unique_ptr<AuthService>& auth,
                          AuthOptions options = CheapAuthOptions(),
                          const std::string& metadata_url = ":memory:") {
  store = OpenMetadataStore(metadata_url);
  store->Migrate();
  audit = std::make_unique<AuditLog>(store->Audit());
  auth = std::make_unique<AuthService>(store->Users(), store->Workspaces(), store->Credentials(),
                                       *audit, std::move(options));
}

// A member `name`@example.com with `role` in `workspace` (created, owned by them, when absent)
// holding a fresh user key of `scope`; returns the key's plaintext.
inline std::string AddMemberWithKey(AuthService& auth, WorkspaceStore& workspaces,
                                    const std::string& name, const std::string& workspace,
                                    MemberFlags role, Scope scope) {
  const std::string email = name + "@example.com";
  auth.accounts().CreateUser(email, name, "correct horse battery", false);
  if (!workspaces.FindWorkspaceByName(workspace)) {
    auth.accounts().CreateWorkspace(workspace, "", email, /*creator_joins=*/false);
  }
  auth.accounts().SetMembership(workspace, email, role);
  return auth.keys().CreateApiKeyFor(email, workspace, "k", scope, KeyKind::kUser, {}).plaintext;
}

}  // namespace dp::test
