#pragma once
// The checks an ID token must pass before anyone is signed in by it (OpenID Connect Core
// §3.1.3.7): a JWS in compact form, signed RS256 or ES256 (never "none", never a shared-secret
// HMAC) by a key of the provider's set, issued by the provider, for this client, unexpired, and
// carrying the nonce this sign-in sent. A failure names which check failed, for the audit row.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "datapipelines/service/identity/oidc/json_web_key_set.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// Why a sign-in through a provider failed: `reason` is a short code for the audit row
// (e.g. "bad_signature", "audience_mismatch", "expired", "nonce_mismatch").
class OidcFailure : public std::runtime_error {
 public:
  explicit OidcFailure(std::string reason)
      : std::runtime_error("OIDC sign-in failed: " + reason), reason_(std::move(reason)) {}
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

struct IdTokenExpectations {
  std::string issuer;     // the provider's discovered issuer, exactly
  std::string client_id;  // this deployment's client at the provider
  std::string nonce;      // sent with the authorization request
  int64_t now_s = 0;      // epoch seconds
  int64_t leeway_s = 60;  // clock skew allowed on exp / iat
};

// The key for a kid (null: unknown — the caller may re-fetch the provider's keys once).
using KeyLookup = std::function<const JsonWebKey*(const std::string& kid)>;

// Returns the token's claims; throws OidcFailure naming the first check that failed.
Json VerifyIdToken(std::string_view token, const IdTokenExpectations& expected,
                   const KeyLookup& key_for);

}  // namespace dp
