#include "datapipelines/service/identity/oidc/oidc_provider.hpp"

#include <cctype>
#include <charconv>

#include "datapipelines/util/crypto.hpp"
#include "datapipelines/util/percent_encoding.hpp"

namespace dp {
namespace {

constexpr int64_t kDefaultCacheMs = 3'600'000;   // a provider that says nothing: an hour
constexpr int64_t kMaxCacheMs = 86'400'000;      // and never more than a day
constexpr int64_t kForcedRefreshGapMs = 10'000;  // unknown kids cannot make us hammer it

// max-age of a Cache-Control header, in ms; the default when absent, 0 for no-store/no-cache.
int64_t CacheLifetimeMs(const HttpHeaders& headers) {
  const auto control = headers.Get("Cache-Control");
  if (!control) return kDefaultCacheMs;
  const std::string_view text = *control;
  if (text.find("no-store") != std::string_view::npos ||
      text.find("no-cache") != std::string_view::npos) {
    return 0;
  }
  const auto at = text.find("max-age=");
  if (at == std::string_view::npos) return kDefaultCacheMs;
  int64_t seconds = 0;
  const char* begin = text.data() + at + 8;
  auto [end, ec] = std::from_chars(begin, text.data() + text.size(), seconds);
  if (ec != std::errc() || seconds < 0) return kDefaultCacheMs;
  return std::min(seconds * 1000, kMaxCacheMs);
}

std::string RequiredUrl(const Json& document, const char* name) {
  const std::string url = document.value(name, "");
  if (url.rfind("https://", 0) != 0 && url.rfind("http://", 0) != 0) {
    throw OidcFailure("discovery_failed");
  }
  return url;
}

std::string WithoutTrailingSlash(std::string text) {
  while (!text.empty() && text.back() == '/') text.pop_back();
  return text;
}

}  // namespace

OidcProvider::OidcProvider(OidcProviderSettings settings, std::string redirect_uri, HttpFetch fetch,
                           std::function<int64_t()> now_ms)
    : settings_(std::move(settings)),
      redirect_uri_(std::move(redirect_uri)),
      fetch_(std::move(fetch)),
      now_ms_(std::move(now_ms)) {}

std::pair<Json, int64_t> OidcProvider::FetchJson(const std::string& url, const char* failure) {
  HttpFetchResponse response;
  try {
    response = fetch_(HttpFetchRequest{"GET", url, {{"Accept", "application/json"}}, ""});
  } catch (const std::exception&) {
    throw OidcFailure(failure);
  }
  if (response.status != 200) throw OidcFailure(failure);
  try {
    return {Json::parse(response.body), CacheLifetimeMs(response.headers)};
  } catch (const Json::exception&) {
    throw OidcFailure(failure);
  }
}

OidcProvider::Discovery OidcProvider::CurrentDiscovery() {
  std::lock_guard lock(mutex_);
  const int64_t now = now_ms_();
  if (discovery_.value && now < discovery_.fresh_until_ms) return *discovery_.value;
  try {
    auto [document, lifetime] =
        FetchJson(WithoutTrailingSlash(settings_.issuer_uri) + "/.well-known/openid-configuration",
                  "discovery_failed");
    Discovery found{document.value("issuer", ""), RequiredUrl(document, "authorization_endpoint"),
                    RequiredUrl(document, "token_endpoint"), RequiredUrl(document, "jwks_uri")};
    // The document must be the configured issuer's own (OpenID Discovery §4.3).
    if (WithoutTrailingSlash(found.issuer) != WithoutTrailingSlash(settings_.issuer_uri)) {
      throw OidcFailure("discovery_issuer_mismatch");
    }
    discovery_ = {found, now + lifetime};
  } catch (const OidcFailure&) {
    if (!discovery_.value) throw;  // a provider briefly down keeps its last document
  }
  return *discovery_.value;
}

JsonWebKeySet OidcProvider::CurrentKeys(bool refresh) {
  const Discovery discovery = CurrentDiscovery();
  std::lock_guard lock(mutex_);
  const int64_t now = now_ms_();
  const bool stale = !keys_.value || now >= keys_.fresh_until_ms;
  const bool may_force = refresh && now - keys_refreshed_at_ms_ >= kForcedRefreshGapMs;
  if (!stale && !may_force) return *keys_.value;
  if (refresh) keys_refreshed_at_ms_ = now;
  try {
    auto [document, lifetime] = FetchJson(discovery.jwks_uri, "jwks_failed");
    keys_ = {JsonWebKeySet::Parse(document), now + lifetime};
  } catch (const std::exception&) {
    if (!keys_.value) throw OidcFailure("jwks_failed");
  }
  return *keys_.value;
}

std::string OidcProvider::AuthorizationUrl(const std::string& state, const std::string& nonce,
                                           const std::string& code_challenge) {
  const Discovery discovery = CurrentDiscovery();
  const std::string& endpoint = discovery.authorization_endpoint;
  return endpoint + (endpoint.find('?') == std::string::npos ? "?" : "&") +
         "response_type=code&client_id=" + PercentEncode(settings_.client_id) +
         "&redirect_uri=" + PercentEncode(redirect_uri_) + "&scope=openid%20profile%20email" +
         "&state=" + PercentEncode(state) + "&nonce=" + PercentEncode(nonce) +
         "&code_challenge=" + PercentEncode(code_challenge) + "&code_challenge_method=S256";
}

std::string OidcProvider::ExchangeCode(const std::string& code, const std::string& code_verifier) {
  const Discovery discovery = CurrentDiscovery();
  HttpFetchRequest request;
  request.method = "POST";
  request.url = discovery.token_endpoint;
  // client_secret_basic: both parts form-encoded first (RFC 6749 §2.3.1).
  request.headers = {
      {"Authorization", "Basic " + Base64Encode(PercentEncode(settings_.client_id) + ":" +
                                                PercentEncode(settings_.client_secret))},
      {"Content-Type", "application/x-www-form-urlencoded"},
      {"Accept", "application/json"}};
  request.body = "grant_type=authorization_code&code=" + PercentEncode(code) +
                 "&redirect_uri=" + PercentEncode(redirect_uri_) +
                 "&code_verifier=" + PercentEncode(code_verifier);
  HttpFetchResponse response;
  try {
    response = fetch_(request);
  } catch (const std::exception&) {
    throw OidcFailure("token_endpoint_unreachable");
  }
  if (response.status != 200) throw OidcFailure("token_exchange_refused");
  try {
    const std::string id_token = Json::parse(response.body).value("id_token", "");
    if (id_token.empty()) throw OidcFailure("id_token_missing");
    return id_token;
  } catch (const Json::exception&) {
    throw OidcFailure("token_exchange_refused");
  }
}

Json OidcProvider::VerifyIdToken(const std::string& id_token, const std::string& nonce) {
  const Discovery discovery = CurrentDiscovery();
  IdTokenExpectations expected{discovery.issuer, settings_.client_id, nonce, now_ms_() / 1000};
  JsonWebKeySet keys = CurrentKeys(false);
  bool refreshed = false;
  KeyLookup key_for = [&](const std::string& kid) -> const JsonWebKey* {
    if (const JsonWebKey* key = keys.Find(kid)) return key;
    if (refreshed) return nullptr;
    refreshed = true;  // the provider may have rotated its keys since we fetched them
    keys = CurrentKeys(true);
    return keys.Find(kid);
  };
  return dp::VerifyIdToken(id_token, expected, key_for);
}

}  // namespace dp
