#pragma once
// Argon2id encoded hashes for passwords and API keys (auth.md §7.2). The encoded form
// carries its own parameters, so changing them later never invalidates stored hashes.
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

namespace dp {

struct Argon2Params {
  uint32_t time_cost = 2;           // iterations
  uint32_t memory_kib = 19 * 1024;  // 19 MiB (OWASP's Argon2id baseline)
  uint32_t parallelism = 1;
  uint32_t salt_bytes = 16;
  uint32_t hash_bytes = 32;
};

class SecretHasher {
 public:
  explicit SecretHasher(Argon2Params params = {});

  // "$argon2id$v=19$m=…,t=…,p=…$salt$hash". Throws std::runtime_error on failure.
  std::string HashSecret(std::string_view secret) const;
  // False on mismatch or a malformed encoded hash; never throws.
  bool VerifySecret(std::string_view encoded, std::string_view secret) const noexcept;

  const Argon2Params& params() const { return params_; }
  // Verifications run so far (lets tests prove a cached key never reaches Argon2).
  uint64_t verify_count() const { return verify_count_.load(); }

 private:
  Argon2Params params_;
  mutable std::atomic<uint64_t> verify_count_{0};
};

}  // namespace dp
