#include "datapipelines/service/identity/oidc/id_token_verifier.hpp"

#include <vector>

#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

struct CompactJws {
  Json header;
  Json claims;
  std::string_view signing_input;  // header.payload, as sent
  std::string signature;
};

Json DecodeJsonPart(std::string_view part) {
  Json parsed = Json::parse(Base64UrlDecode(part));
  if (!parsed.is_object()) throw OidcFailure("malformed");
  return parsed;
}

CompactJws Split(std::string_view token) {
  const auto first = token.find('.');
  const auto second = first == std::string_view::npos ? first : token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) {
    throw OidcFailure("malformed");
  }
  try {
    return CompactJws{DecodeJsonPart(token.substr(0, first)),
                      DecodeJsonPart(token.substr(first + 1, second - first - 1)),
                      token.substr(0, second), Base64UrlDecode(token.substr(second + 1))};
  } catch (const OidcFailure&) {
    throw;
  } catch (const std::exception&) {
    throw OidcFailure("malformed");
  }
}

void CheckSignature(const CompactJws& jws, const KeyLookup& key_for) {
  const std::string alg = jws.header.value("alg", "");
  if (alg != "RS256" && alg != "ES256") throw OidcFailure("alg_unsupported");
  const JsonWebKey* key = key_for(jws.header.value("kid", ""));
  if (!key) throw OidcFailure("unknown_key");
  if (!VerifyJwsSignature(alg, *key, jws.signing_input, jws.signature)) {
    throw OidcFailure("bad_signature");
  }
}

// aud may be one string or a list; with several audiences the authorized party must be us.
bool IsForClient(const Json& claims, const std::string& client_id) {
  const Json aud = claims.value("aud", Json());
  if (aud.is_string()) return aud == client_id;
  if (!aud.is_array()) return false;
  bool listed = false;
  for (const Json& one : aud) listed = listed || (one.is_string() && one == client_id);
  if (!listed) return false;
  return aud.size() == 1 || claims.value("azp", "") == client_id;
}

int64_t NumericClaim(const Json& claims, const char* name) {
  const Json value = claims.value(name, Json());
  if (!value.is_number()) throw OidcFailure(std::string(name) + "_missing");
  return value.get<int64_t>();
}

Json VerifyClaims(std::string_view token, const IdTokenExpectations& expected,
                  const KeyLookup& key_for) {
  CompactJws jws = Split(token);
  CheckSignature(jws, key_for);
  const Json& claims = jws.claims;
  if (claims.value("iss", "") != expected.issuer) throw OidcFailure("issuer_mismatch");
  if (!IsForClient(claims, expected.client_id)) throw OidcFailure("audience_mismatch");
  if (NumericClaim(claims, "exp") + expected.leeway_s <= expected.now_s) {
    throw OidcFailure("expired");
  }
  if (NumericClaim(claims, "iat") - expected.leeway_s > expected.now_s) {
    throw OidcFailure("issued_in_the_future");
  }
  const std::string nonce = claims.value("nonce", "");
  if (nonce.empty() || !ConstantTimeEquals(nonce, expected.nonce)) {
    throw OidcFailure("nonce_mismatch");
  }
  if (!claims.contains("sub") || !claims["sub"].is_string()) throw OidcFailure("sub_missing");
  return claims;
}

}  // namespace

Json VerifyIdToken(std::string_view token, const IdTokenExpectations& expected,
                   const KeyLookup& key_for) {
  try {
    return VerifyClaims(token, expected, key_for);
  } catch (const Json::exception&) {
    throw OidcFailure("malformed");  // a claim of the wrong JSON type
  }
}

}  // namespace dp
