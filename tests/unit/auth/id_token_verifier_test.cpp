// The ID token checks of an OIDC sign-in, on tokens signed here with real RSA and P-256 keys:
// a good token passes; a wrong signature, algorithm, issuer, audience, expiry or nonce is
// refused with its own reason.
#include "datapipelines/service/identity/oidc/id_token_verifier.hpp"

#include <gtest/gtest.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include <memory>
#include <string>

#include "datapipelines/service/identity/auth_records.hpp"

namespace dp {
namespace {

using Key = std::shared_ptr<EVP_PKEY>;

std::string BigNumParam(const Key& key, const char* name) {
  BIGNUM* value = nullptr;
  EVP_PKEY_get_bn_param(key.get(), name, &value);
  std::string bytes(static_cast<std::size_t>(BN_num_bytes(value)), '\0');
  BN_bn2bin(value, reinterpret_cast<unsigned char*>(bytes.data()));
  BN_free(value);
  return bytes;
}

Key RsaKey() { return Key(EVP_RSA_gen(2048), &EVP_PKEY_free); }
Key P256Key() { return Key(EVP_EC_gen("P-256"), &EVP_PKEY_free); }

// The public half as a JWK, the way a provider publishes it.
Json PublicJwk(const Key& key, const std::string& kid) {
  if (EVP_PKEY_get_base_id(key.get()) == EVP_PKEY_RSA) {
    return {{"kty", "RSA"},
            {"kid", kid},
            {"use", "sig"},
            {"alg", "RS256"},
            {"n", Base64Url(BigNumParam(key, OSSL_PKEY_PARAM_RSA_N))},
            {"e", Base64Url(BigNumParam(key, OSSL_PKEY_PARAM_RSA_E))}};
  }
  unsigned char point[65];
  std::size_t length = 0;
  EVP_PKEY_get_octet_string_param(key.get(), OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point, &length);
  std::string raw(reinterpret_cast<char*>(point), length);
  return {{"kty", "EC"},
          {"kid", kid},
          {"crv", "P-256"},
          {"use", "sig"},
          {"x", Base64Url(raw.substr(1, 32))},
          {"y", Base64Url(raw.substr(33, 32))}};
}

std::string Sign(const Key& key, const std::string& input, bool es256) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get());
  std::size_t length = 0;
  EVP_DigestSign(ctx.get(), nullptr, &length, reinterpret_cast<const unsigned char*>(input.data()),
                 input.size());
  std::string signature(length, '\0');
  EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                 reinterpret_cast<const unsigned char*>(input.data()), input.size());
  signature.resize(length);
  if (!es256) return signature;
  // DER → r || s, as JWS writes ES256.
  const unsigned char* der = reinterpret_cast<const unsigned char*>(signature.data());
  std::unique_ptr<ECDSA_SIG, decltype(&ECDSA_SIG_free)> sig(
      d2i_ECDSA_SIG(nullptr, &der, static_cast<long>(signature.size())), &ECDSA_SIG_free);
  std::string raw(64, '\0');
  BN_bn2binpad(ECDSA_SIG_get0_r(sig.get()), reinterpret_cast<unsigned char*>(raw.data()), 32);
  BN_bn2binpad(ECDSA_SIG_get0_s(sig.get()), reinterpret_cast<unsigned char*>(raw.data()) + 32, 32);
  return raw;
}

std::string Token(const Key& key, const std::string& alg, const std::string& kid,
                  const Json& claims) {
  const std::string input = Base64Url(Json{{"alg", alg}, {"kid", kid}, {"typ", "JWT"}}.dump()) +
                            "." + Base64Url(claims.dump());
  return input + "." + Base64Url(Sign(key, input, alg == "ES256"));
}

constexpr int64_t kNow = 1'800'000'000;

Json GoodClaims() {
  return {{"iss", "https://idp.example"},
          {"aud", "dp-client"},
          {"sub", "s-1"},
          {"email", "a@example.com"},
          {"exp", kNow + 300},
          {"iat", kNow - 5},
          {"nonce", "n-123"}};
}

IdTokenExpectations Expected() { return {"https://idp.example", "dp-client", "n-123", kNow}; }

class IdTokenVerifierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    keys_ = JsonWebKeySet::Parse(Json{{"keys",
                                       {PublicJwk(rsa_, "rsa-1"), PublicJwk(ec_, "ec-1"),
                                        Json{{"kty", "RSA"}, {"use", "enc"}, {"kid", "enc-1"}}}}});
  }
  KeyLookup Lookup() {
    return [this](const std::string& kid) { return keys_.Find(kid); };
  }
  // The reason VerifyIdToken refused `token` with, or "" when it accepted it.
  std::string Refusal(const std::string& token, IdTokenExpectations expected = Expected()) {
    try {
      VerifyIdToken(token, expected, Lookup());
      return "";
    } catch (const OidcFailure& failure) {
      return failure.reason();
    }
  }

  Key rsa_ = RsaKey();
  Key ec_ = P256Key();
  JsonWebKeySet keys_;
};

TEST_F(IdTokenVerifierTest, SigningKeysAreReadAndEncryptionKeysSkipped) {
  EXPECT_EQ(keys_.size(), 2u);
  EXPECT_NE(keys_.Find("rsa-1"), nullptr);
  EXPECT_NE(keys_.Find("ec-1"), nullptr);
  EXPECT_EQ(keys_.Find("enc-1"), nullptr);
  EXPECT_EQ(keys_.Find(""), nullptr);  // two keys: a token without kid names none
}

TEST_F(IdTokenVerifierTest, AGoodTokenOfEitherAlgorithmPassesWithItsClaims) {
  for (const auto& [key, alg, kid] :
       {std::tuple{rsa_, "RS256", "rsa-1"}, std::tuple{ec_, "ES256", "ec-1"}}) {
    Json claims = VerifyIdToken(Token(key, alg, kid, GoodClaims()), Expected(), Lookup());
    EXPECT_EQ(claims["email"], "a@example.com") << alg;
  }
}

TEST_F(IdTokenVerifierTest, EachFailedCheckIsRefusedWithItsReason) {
  Key stranger = RsaKey();
  auto with = [](const char* name, Json value) {
    Json claims = GoodClaims();
    claims[name] = std::move(value);
    return claims;
  };
  EXPECT_EQ(Refusal(Token(stranger, "RS256", "rsa-1", GoodClaims())), "bad_signature");
  EXPECT_EQ(Refusal(Token(rsa_, "RS256", "rotated-9", GoodClaims())), "unknown_key");
  EXPECT_EQ(Refusal(Token(rsa_, "RS256", "rsa-1", with("iss", "https://evil.example"))),
            "issuer_mismatch");
  EXPECT_EQ(Refusal(Token(rsa_, "RS256", "rsa-1", with("aud", "another-client"))),
            "audience_mismatch");
  EXPECT_EQ(Refusal(Token(rsa_, "RS256", "rsa-1", with("aud", Json{"another", "dp-client"}))),
            "audience_mismatch");  // several audiences: azp must name us
  EXPECT_EQ(Refusal(Token(rsa_, "RS256", "rsa-1", with("exp", kNow - 120))), "expired");
  EXPECT_EQ(Refusal(Token(rsa_, "RS256", "rsa-1", with("nonce", "replayed"))), "nonce_mismatch");
  EXPECT_EQ(Refusal(Token(rsa_, "RS256", "rsa-1", with("iat", kNow + 3600))),
            "issued_in_the_future");
  EXPECT_EQ(Refusal(Token(rsa_, "RS256", "rsa-1", with("exp", "soon"))), "exp_missing");
  // The signature is checked with the algorithm the key is for, never the one the token names.
  EXPECT_EQ(Refusal(Token(ec_, "RS256", "ec-1", GoodClaims())), "bad_signature");
  EXPECT_EQ(Refusal("not-a-token"), "malformed");
}

TEST_F(IdTokenVerifierTest, UnsignedAndSharedSecretTokensAreRefused) {
  const std::string payload = Base64Url(GoodClaims().dump());
  EXPECT_EQ(Refusal(Base64Url(R"({"alg":"none"})") + "." + payload + "."), "alg_unsupported");
  EXPECT_EQ(Refusal(Base64Url(R"({"alg":"HS256","kid":"rsa-1"})") + "." + payload + ".c2ln"),
            "alg_unsupported");
}

}  // namespace
}  // namespace dp
