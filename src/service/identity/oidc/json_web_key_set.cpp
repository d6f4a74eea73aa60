#include "datapipelines/service/identity/oidc/json_web_key_set.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <stdexcept>

#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

using BigNum = std::unique_ptr<BIGNUM, decltype(&BN_free)>;

BigNum ToBigNum(const std::string& bytes) {
  return BigNum(BN_bin2bn(reinterpret_cast<const unsigned char*>(bytes.data()),
                          static_cast<int>(bytes.size()), nullptr),
                &BN_free);
}

// Builds a public key of `type` ("RSA" | "EC") from OpenSSL parameters; null on failure.
std::shared_ptr<EVP_PKEY> FromParams(const char* type, OSSL_PARAM_BLD* builder) {
  std::unique_ptr<OSSL_PARAM, decltype(&OSSL_PARAM_free)> params(OSSL_PARAM_BLD_to_param(builder),
                                                                 &OSSL_PARAM_free);
  std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)> ctx(
      EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr), &EVP_PKEY_CTX_free);
  EVP_PKEY* key = nullptr;
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) <= 0 ||
      EVP_PKEY_fromdata(ctx.get(), &key, EVP_PKEY_PUBLIC_KEY, params.get()) <= 0) {
    return nullptr;
  }
  return std::shared_ptr<EVP_PKEY>(key, &EVP_PKEY_free);
}

std::shared_ptr<EVP_PKEY> RsaKey(const Json& jwk) {
  BigNum n = ToBigNum(Base64UrlDecode(jwk.at("n").get<std::string>()));
  BigNum e = ToBigNum(Base64UrlDecode(jwk.at("e").get<std::string>()));
  std::unique_ptr<OSSL_PARAM_BLD, decltype(&OSSL_PARAM_BLD_free)> builder(OSSL_PARAM_BLD_new(),
                                                                          &OSSL_PARAM_BLD_free);
  if (!n || !e || !builder ||
      !OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_N, n.get()) ||
      !OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_E, e.get())) {
    return nullptr;
  }
  return FromParams("RSA", builder.get());
}

std::shared_ptr<EVP_PKEY> P256Key(const Json& jwk) {
  if (jwk.value("crv", "") != "P-256") return nullptr;
  const std::string x = Base64UrlDecode(jwk.at("x").get<std::string>());
  const std::string y = Base64UrlDecode(jwk.at("y").get<std::string>());
  if (x.size() != 32 || y.size() != 32) return nullptr;
  const std::string point = std::string(1, '\x04') + x + y;  // uncompressed
  std::unique_ptr<OSSL_PARAM_BLD, decltype(&OSSL_PARAM_BLD_free)> builder(OSSL_PARAM_BLD_new(),
                                                                          &OSSL_PARAM_BLD_free);
  if (!builder ||
      !OSSL_PARAM_BLD_push_utf8_string(builder.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1",
                                       0) ||
      !OSSL_PARAM_BLD_push_octet_string(builder.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(),
                                        point.size())) {
    return nullptr;
  }
  return FromParams("EC", builder.get());
}

// A JWS ES256 signature is r || s (32 bytes each); OpenSSL verifies the DER form.
std::string EcdsaDer(std::string_view raw) {
  if (raw.size() != 64) return "";
  std::unique_ptr<ECDSA_SIG, decltype(&ECDSA_SIG_free)> sig(ECDSA_SIG_new(), &ECDSA_SIG_free);
  BIGNUM* r = BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()), 32, nullptr);
  BIGNUM* s = BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()) + 32, 32, nullptr);
  if (!sig || !r || !s || ECDSA_SIG_set0(sig.get(), r, s) != 1) {
    BN_free(r);
    BN_free(s);
    return "";
  }
  unsigned char* der = nullptr;
  const int length = i2d_ECDSA_SIG(sig.get(), &der);
  if (length <= 0) return "";
  std::string out(reinterpret_cast<char*>(der), static_cast<std::size_t>(length));
  OPENSSL_free(der);
  return out;
}

}  // namespace

JsonWebKeySet JsonWebKeySet::Parse(const Json& jwks) {
  if (!jwks.is_object() || !jwks.contains("keys") || !jwks["keys"].is_array()) {
    throw std::invalid_argument("a JWK set is an object with a \"keys\" array");
  }
  JsonWebKeySet set;
  for (const Json& jwk : jwks["keys"]) {
    if (!jwk.is_object() || jwk.value("use", "sig") != "sig") continue;
    JsonWebKey key{jwk.value("kid", ""), jwk.value("kty", ""), nullptr};
    try {
      if (key.kty == "RSA") key.key = RsaKey(jwk);
      if (key.kty == "EC") key.key = P256Key(jwk);
    } catch (const std::exception&) {
      continue;  // a malformed key is not one we can check a signature with
    }
    if (key.key) set.keys_.push_back(std::move(key));
  }
  return set;
}

const JsonWebKey* JsonWebKeySet::Find(std::string_view kid) const {
  if (kid.empty()) return keys_.size() == 1 ? &keys_.front() : nullptr;
  for (const JsonWebKey& key : keys_) {
    if (key.kid == kid) return &key;
  }
  return nullptr;
}

bool VerifyJwsSignature(std::string_view alg, const JsonWebKey& key, std::string_view signing_input,
                        std::string_view signature) {
  std::string checked;
  if (alg == "RS256" && key.kty == "RSA") {
    checked = std::string(signature);
  } else if (alg == "ES256" && key.kty == "EC") {
    checked = EcdsaDer(signature);
  }
  if (checked.empty()) return false;
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  return ctx &&
         EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.key.get()) == 1 &&
         EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(checked.data()),
                          checked.size(),
                          reinterpret_cast<const unsigned char*>(signing_input.data()),
                          signing_input.size()) == 1;
}

}  // namespace dp
