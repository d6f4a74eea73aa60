#include "datapipelines/service/identity/secret_hasher.hpp"

#include <gtest/gtest.h>

namespace dp {
namespace {

// Cheap parameters: the tests exercise behaviour, not cost.
Argon2Params Cheap() { return Argon2Params{.time_cost = 1, .memory_kib = 1024, .parallelism = 1}; }

TEST(SecretHasher, ProducesAnArgon2idEncodedHashCarryingItsParameters) {
  SecretHasher hasher(Cheap());
  std::string encoded = hasher.HashSecret("correct horse battery staple");
  EXPECT_TRUE(encoded.starts_with("$argon2id$v=19$m=1024,t=1,p=1$")) << encoded;
  EXPECT_EQ(encoded.find('\0'), std::string::npos);
  EXPECT_EQ(encoded.find("correct horse"), std::string::npos);
}

TEST(SecretHasher, VerifiesTheRightSecretOnly) {
  SecretHasher hasher(Cheap());
  std::string encoded = hasher.HashSecret("s3cret-value");
  EXPECT_TRUE(hasher.VerifySecret(encoded, "s3cret-value"));
  EXPECT_FALSE(hasher.VerifySecret(encoded, "s3cret-valuE"));
  EXPECT_FALSE(hasher.VerifySecret(encoded, ""));
}

TEST(SecretHasher, SaltsEveryHash) {
  SecretHasher hasher(Cheap());
  EXPECT_NE(hasher.HashSecret("same"), hasher.HashSecret("same"));
}

TEST(SecretHasher, DefaultParametersAreTheDocumentedBaseline) {
  SecretHasher hasher;
  EXPECT_EQ(hasher.params().time_cost, 2u);
  EXPECT_EQ(hasher.params().memory_kib, 19u * 1024u);
  EXPECT_EQ(hasher.params().parallelism, 1u);
  std::string encoded = hasher.HashSecret("pw");
  EXPECT_TRUE(encoded.starts_with("$argon2id$v=19$m=19456,t=2,p=1$")) << encoded;
}

TEST(SecretHasher, HashFromOtherParametersStillVerifies) {
  // Encoded hashes are self-describing: changing the configured cost keeps old hashes valid.
  std::string old_hash = SecretHasher(Cheap()).HashSecret("pw-123");
  SecretHasher stronger(Argon2Params{.time_cost = 3, .memory_kib = 2048, .parallelism = 1});
  EXPECT_TRUE(stronger.VerifySecret(old_hash, "pw-123"));
}

TEST(SecretHasher, MalformedHashesNeverVerifyAndNeverThrow) {
  SecretHasher hasher(Cheap());
  EXPECT_FALSE(hasher.VerifySecret("", "x"));
  EXPECT_FALSE(hasher.VerifySecret("plaintext", "plaintext"));
  EXPECT_FALSE(hasher.VerifySecret("$argon2id$v=19$m=1024,t=1,p=1$garbage", "x"));
  std::string argon2i = "$argon2i$v=19$m=1024,t=1,p=1$c29tZXNhbHQ$aGFzaGhhc2g";
  EXPECT_FALSE(hasher.VerifySecret(argon2i, "x"));
}

TEST(SecretHasher, CountsVerifications) {
  SecretHasher hasher(Cheap());
  std::string encoded = hasher.HashSecret("pw");
  EXPECT_EQ(hasher.verify_count(), 0u);
  hasher.VerifySecret(encoded, "pw");
  hasher.VerifySecret(encoded, "nope");
  EXPECT_EQ(hasher.verify_count(), 2u);
}

}  // namespace
}  // namespace dp
