#pragma once
// The auth subsystem as the server builds it: who is calling (Authenticator), the API keys
// people hold (ApiKeyService) and the people and workspaces themselves (AccountAdministration),
// over one set of records. They are built together because they share the stores, the hasher
// and the authenticator's credential caches: a revocation or a demotion through either of the
// other two reaches those caches at once.
#include <cstdint>
#include <functional>

#include "datapipelines/service/identity/account_administration.hpp"
#include "datapipelines/service/identity/api_key_service.hpp"
#include "datapipelines/service/identity/auth_records.hpp"
#include "datapipelines/service/identity/authenticator.hpp"

namespace dp {

class MailNotifier;

struct AuthOptions : AuthenticatorOptions {
  Argon2Params hasher;
  std::function<int64_t()> clock;  // epoch ms; empty = NowMs
  MailNotifier* mail = nullptr;    // the account notices; null = none
};

class AuthService {
 public:
  AuthService(UserStore& users, WorkspaceStore& workspaces, CredentialStore& credentials,
              AuditLog& audit, AuthOptions options = {});
  AuthService(const AuthService&) = delete;
  AuthService& operator=(const AuthService&) = delete;

  Authenticator& authentication() { return authentication_; }
  ApiKeyService& keys() { return keys_; }
  AccountAdministration& accounts() { return accounts_; }
  const SecretHasher& hasher() const { return records_.hasher(); }
  // The sink every auth event goes to (the REST choke point writes through it too).
  AuditLog& audit_log() const { return records_.audit_log(); }
  // The stores, clock and audit sink the auth services share (the OIDC sign-in reads them too).
  const AuthRecords& records() const { return records_; }

 private:
  AuthRecords records_;
  Authenticator authentication_;
  ApiKeyService keys_;
  AccountAdministration accounts_;
};

}  // namespace dp
