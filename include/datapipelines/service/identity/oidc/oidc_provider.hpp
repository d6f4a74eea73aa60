#pragma once
// One OpenID provider as this server's client of it (auth.md §5.1–§5.4): its discovery
// document and signing keys fetched over the HttpFetch port and cached for as long as the
// provider's Cache-Control allows (an hour when it says nothing), the keys re-fetched once when
// a token names a kid they do not hold (the provider rotated them); the authorization URL of
// the code flow with PKCE (S256), state and nonce; the code exchanged for an ID token at the
// token endpoint (client_secret_basic); the ID token verified. Thread-safe; blocks on the
// network: call from the blocking pool. Nothing here logs a token or the client secret.
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "datapipelines/config/config.hpp"
#include "datapipelines/net/http_fetch.hpp"
#include "datapipelines/service/identity/oidc/id_token_verifier.hpp"
#include "datapipelines/service/identity/oidc/json_web_key_set.hpp"

namespace dp {

class OidcProvider {
 public:
  // `redirect_uri`: <base-url>/login/oauth2/code/<name>. `now_ms`: the clock (epoch ms).
  OidcProvider(OidcProviderSettings settings, std::string redirect_uri, HttpFetch fetch,
               std::function<int64_t()> now_ms);

  const OidcProviderSettings& settings() const { return settings_; }

  // Where the browser goes to sign in. Throws OidcFailure("discovery_failed").
  std::string AuthorizationUrl(const std::string& state, const std::string& nonce,
                               const std::string& code_challenge);
  // The ID token the provider answers for `code`. Throws OidcFailure.
  std::string ExchangeCode(const std::string& code, const std::string& code_verifier);
  // The verified claims of `id_token`. Throws OidcFailure naming the failed check.
  Json VerifyIdToken(const std::string& id_token, const std::string& nonce);

 private:
  struct Discovery {
    std::string issuer;
    std::string authorization_endpoint;
    std::string token_endpoint;
    std::string jwks_uri;
  };
  template <typename T>
  struct Cached {
    std::optional<T> value;
    int64_t fresh_until_ms = 0;
  };

  Discovery CurrentDiscovery();
  // The key set; `refresh` forces a fetch (a token named a kid we do not hold).
  JsonWebKeySet CurrentKeys(bool refresh);
  // GETs a JSON document and how long it may be cached (ms).
  std::pair<Json, int64_t> FetchJson(const std::string& url, const char* failure);

  OidcProviderSettings settings_;
  std::string redirect_uri_;
  HttpFetch fetch_;
  std::function<int64_t()> now_ms_;
  std::mutex mutex_;
  Cached<Discovery> discovery_;
  Cached<JsonWebKeySet> keys_;
  int64_t keys_refreshed_at_ms_ = 0;  // the last forced fetch: at most one per 10 s
};

}  // namespace dp
