#include "datapipelines/service/identity/oidc/oidc_sign_in.hpp"

#include <algorithm>

#include "datapipelines/mail/mail_notifier.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/service/identity/account_rules.hpp"
#include "datapipelines/store/duplicate_key_error.hpp"
#include "datapipelines/util/ascii.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

// PKCE S256 (RFC 7636 §4.2): the challenge is the verifier's SHA-256, base64url.
std::string CodeChallenge(const std::string& verifier) { return Base64Url(Sha256(verifier)); }

std::string StringClaim(const Json& claims, const char* name) {
  const auto it = claims.find(name);
  return it != claims.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

OidcSignIn::OidcSignIn(const std::vector<OidcProviderSettings>& providers,
                       OidcSignInOptions options, const AuthRecords& records,
                       Authenticator& sessions, OidcLoginRequestStore& requests, HttpFetch fetch)
    : options_(std::move(options)), records_(records), sessions_(sessions), requests_(requests) {
  for (const auto& settings : providers) {
    providers_.push_back(std::make_unique<OidcProvider>(
        settings, options_.base_url + "/login/oauth2/code/" + settings.name, fetch,
        [this] { return records_.Now(); }));
  }
}

OidcSignIn::~OidcSignIn() = default;

std::vector<OidcSignIn::ProviderButton> OidcSignIn::Providers() const {
  std::vector<ProviderButton> buttons;
  for (const auto& provider : providers_) {
    const auto& settings = provider->settings();
    buttons.push_back({settings.name, settings.display_name.empty()
                                          ? "Sign in with " + settings.name
                                          : settings.display_name});
  }
  return buttons;
}

OidcProvider& OidcSignIn::RequireProvider(const std::string& name) {
  for (const auto& provider : providers_) {
    if (provider->settings().name == name) return *provider;
  }
  throw DomainError(errc::kRouteNotFound, "No sign-in provider is named '" + name + "'.");
}

OidcSignIn::Redirect OidcSignIn::Begin(const std::string& provider, const std::string& next_path) {
  OidcProvider& chosen = RequireProvider(provider);
  const int64_t now = records_.Now();
  requests_.DropOlderThan(now - kRequestLifetimeMs);  // abandoned sign-ins
  Redirect redirect;
  redirect.state = Base64Url(RandomBytes(32));
  OidcLoginRequest request{Sha256Hex(redirect.state),  provider,  Base64Url(RandomBytes(32)),
                           Base64Url(RandomBytes(48)), next_path, now};
  try {
    redirect.url = chosen.AuthorizationUrl(redirect.state, request.nonce,
                                           CodeChallenge(request.code_verifier));
  } catch (const OidcFailure& failure) {
    Refuse(provider, failure.reason(), "");
  }
  requests_.Insert(request);
  return redirect;
}

OidcLoginRequest OidcSignIn::TakeRequest(const std::string& provider, const Callback& callback) {
  if (!callback.provider_error.empty()) throw OidcFailure("provider_error");
  // The browser that began the sign-in must be the one finishing it (login CSRF).
  if (callback.state.empty() || !ConstantTimeEquals(callback.state, callback.cookie_state)) {
    throw OidcFailure("state_mismatch");
  }
  auto request = requests_.Take(Sha256Hex(callback.state));
  if (!request) throw OidcFailure("state_unknown");  // replayed, or never begun here
  if (request->provider != provider) throw OidcFailure("state_mismatch");
  if (records_.Now() - request->created_at_ms > kRequestLifetimeMs) {
    throw OidcFailure("state_expired");
  }
  return *request;
}

OidcSignIn::Completed OidcSignIn::Complete(const std::string& provider, const Callback& callback,
                                           std::string_view source_ip) {
  OidcProvider& chosen = RequireProvider(provider);
  Json claims;
  OidcLoginRequest request;
  try {
    request = TakeRequest(provider, callback);
    claims = chosen.VerifyIdToken(chosen.ExchangeCode(callback.code, request.code_verifier),
                                  request.nonce);
  } catch (const OidcFailure& failure) {
    Refuse(provider, failure.reason(), source_ip);
  }
  User user = Provision(provider, claims, source_ip);
  return Completed{sessions_.OpenSession(user, source_ip, provider), request.next_path};
}

User OidcSignIn::Provision(const std::string& provider, const Json& claims,
                           std::string_view source_ip) {
  const std::string email = NormalizeEmail(StringClaim(claims, "email"));
  if (!IsValidEmail(email)) Refuse(provider, "email_missing", source_ip);
  // An unverified address must never reach the linking below: it would take over the row of
  // whoever owns that address. A provider that omits the claim vouches for the address.
  if (claims.contains("email_verified") && claims["email_verified"] == false) {
    Refuse(provider, "email_unverified", source_ip, email);
  }
  if (!EmailDomainAllowed(options_.allowlist_domains, email)) {
    records_.Audit("auth.login.domain_not_allowed", "", "", "", source_ip,
                   {{"email", email}, {"provider", provider}});
    throw DomainError(errc::kLoginDomainNotAllowed,
                      "This e-mail domain may not sign in to this deployment.");
  }
  OidcIdentity identity{provider, StringClaim(claims, "sub"), StringClaim(claims, "name"),
                        StringClaim(claims, "picture")};
  if (identity.display_name.empty()) identity.display_name = email;
  auto user = records_.users().FindUserByEmail(email);
  if (!user) {
    User created;
    created.id = NewUuid();
    created.email = email;
    created.display_name = identity.display_name;
    created.created_at_ms = records_.Now();
    created.provider = provider;
    created.is_super_admin =
        !options_.bootstrap_admin_email.empty() &&
        NormalizeEmail(options_.bootstrap_admin_email) == email;  // at creation, never later
    try {
      records_.users().InsertUser(created);
      records_.Audit("auth.user.created", created.id, "", "", source_ip,
                     {{"email", email}, {"provider", provider}, {"actor", "self_service"}});
      if (created.is_super_admin) {
        records_.Audit("auth.user.admin_granted", created.id, "", "", source_ip,
                       {{"email", email}, {"actor", "bootstrap"}});
      }
      if (options_.mail) {
        options_.mail->SendNewUser(NewUserNotice{created.id, email, created.display_name, provider,
                                                 "self-service via " + provider, "",
                                                 created.created_at_ms});
      }
    } catch (const DuplicateKeyError&) {
      // A first sign-in of the same person on another instance won the row: link onto it.
    }
    user = records_.users().FindUserByEmail(email);
  }
  if (!user->is_active) {
    records_.Audit("auth.login.user_inactive", user->id, "", "", source_ip,
                   {{"email", email}, {"provider", provider}});
    throw DomainError(errc::kLoginUserInactive, "This account is deactivated.");
  }
  records_.users().RecordOidcSignIn(user->id, identity, records_.Now());
  return *user;
}

void OidcSignIn::Refuse(const std::string& provider, const std::string& reason,
                        std::string_view source_ip, const std::string& email) const {
  Json details = {{"provider", provider}, {"reason", reason}};
  if (!email.empty()) details["email"] = email;
  records_.Audit("auth.login.oidc_error", "", "", "", source_ip, details);
  throw DomainError(errc::kLoginOidcError,
                    "Signing in through " + provider + " did not succeed (" + reason +
                        "); try again, or ask an administrator.",
                    Json{{"reason", reason}, {"provider", provider}});
}

}  // namespace dp
