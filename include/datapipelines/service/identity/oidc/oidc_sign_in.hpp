#pragma once
// Signing in through an OpenID provider (auth.md §4.2–§4.4, §5.4–§5.5), the whole of it that is
// not HTTP: Begin records a pending sign-in (state, nonce, PKCE verifier) and answers where the
// browser goes; Complete takes that record back exactly once, exchanges the code, verifies the
// ID token, refuses an unverified address or a domain outside the allowlist, links the person
// to their row by lower-cased e-mail (creating it, and granting super admin to the configured
// bootstrap e-mail, only at creation), and opens the same session a password sign-in opens.
// Every refusal is audited with its reason and answered with a catalogued code; no token,
// code, verifier or secret reaches a log line or an audit row. Blocks: call from the pool.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "datapipelines/config/config.hpp"
#include "datapipelines/net/http_fetch.hpp"
#include "datapipelines/service/identity/auth_records.hpp"
#include "datapipelines/service/identity/authenticator.hpp"
#include "datapipelines/service/identity/oidc/oidc_provider.hpp"
#include "datapipelines/store/oidc_login_request_store.hpp"

namespace dp {

class MailNotifier;

struct OidcSignInOptions {
  std::string base_url;                        // redirect URIs are built from it alone
  std::vector<std::string> allowlist_domains;  // empty: any domain
  std::string bootstrap_admin_email;
  MailNotifier* mail = nullptr;  // the New user notice at a first sign-in; null = none
};

class OidcSignIn {
 public:
  OidcSignIn(const std::vector<OidcProviderSettings>& providers, OidcSignInOptions options,
             const AuthRecords& records, Authenticator& sessions, OidcLoginRequestStore& requests,
             HttpFetch fetch);
  ~OidcSignIn();

  struct ProviderButton {
    std::string name;
    std::string display_name;
  };
  // The configured providers, in configuration order (the sign-in page's buttons).
  std::vector<ProviderButton> Providers() const;

  struct Redirect {
    std::string url;    // the provider's authorization endpoint with this sign-in's parameters
    std::string state;  // also set as the browser's dp_oauth2_authz cookie
  };
  // request.route_not_found for a provider not configured; auth.login.oidc_error when the
  // provider's discovery document cannot be read.
  Redirect Begin(const std::string& provider, const std::string& next_path);

  struct Callback {
    std::string code;
    std::string state;
    std::string cookie_state;    // the dp_oauth2_authz cookie the browser brought back
    std::string provider_error;  // the provider's `error` parameter, if it sent one
  };
  struct Completed {
    LoginResult login;
    std::string next_path;
  };
  // auth.login.oidc_error, auth.login.domain_not_allowed or auth.login.user_inactive, audited.
  Completed Complete(const std::string& provider, const Callback& callback,
                     std::string_view source_ip);

  // How long a pending sign-in waits for its callback.
  static constexpr int64_t kRequestLifetimeMs = 10 * 60 * 1000;

 private:
  OidcProvider& RequireProvider(const std::string& name);
  OidcLoginRequest TakeRequest(const std::string& provider, const Callback& callback);
  User Provision(const std::string& provider, const Json& claims, std::string_view source_ip);
  [[noreturn]] void Refuse(const std::string& provider, const std::string& reason,
                           std::string_view source_ip, const std::string& email = "") const;

  OidcSignInOptions options_;
  const AuthRecords& records_;
  Authenticator& sessions_;
  OidcLoginRequestStore& requests_;
  std::vector<std::unique_ptr<OidcProvider>> providers_;
};

}  // namespace dp
