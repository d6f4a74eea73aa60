#pragma once
// An OpenID provider's signing keys (RFC 7517) and the JWS signature check an ID token needs
// (RFC 7515): RSA keys for RS256, P-256 keys for ES256, verified with OpenSSL. Keys of any other
// type or use are skipped, never an error: providers publish encryption keys beside them.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/util/json.hpp"

typedef struct evp_pkey_st EVP_PKEY;

namespace dp {

struct JsonWebKey {
  std::string kid;
  std::string kty;  // "RSA" | "EC"
  std::shared_ptr<EVP_PKEY> key;
};

class JsonWebKeySet {
 public:
  // Throws std::invalid_argument when `jwks` is not a {"keys": [...]} document.
  static JsonWebKeySet Parse(const Json& jwks);

  // The key with this kid; without a kid, the only key there is (else null).
  const JsonWebKey* Find(std::string_view kid) const;
  std::size_t size() const { return keys_.size(); }

 private:
  std::vector<JsonWebKey> keys_;
};

// True when `signature` (raw JWS bytes) signs `signing_input` under `key` with `alg`
// ("RS256" or "ES256"; any other algorithm, or a key of the other type, is false).
bool VerifyJwsSignature(std::string_view alg, const JsonWebKey& key, std::string_view signing_input,
                        std::string_view signature);

}  // namespace dp
