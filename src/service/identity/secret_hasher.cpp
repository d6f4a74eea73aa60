#include "datapipelines/service/identity/secret_hasher.hpp"

#include <argon2.h>

#include <stdexcept>

#include "datapipelines/util/crypto.hpp"

namespace dp {

SecretHasher::SecretHasher(Argon2Params params) : params_(params) {}

std::string SecretHasher::HashSecret(std::string_view secret) const {
  std::string salt = RandomBytes(params_.salt_bytes);
  std::size_t length = argon2_encodedlen(params_.time_cost, params_.memory_kib, params_.parallelism,
                                         params_.salt_bytes, params_.hash_bytes, Argon2_id);
  std::string encoded(length, '\0');
  int rc = argon2id_hash_encoded(params_.time_cost, params_.memory_kib, params_.parallelism,
                                 secret.data(), secret.size(), salt.data(), salt.size(),
                                 params_.hash_bytes, encoded.data(), encoded.size());
  if (rc != ARGON2_OK) {
    throw std::runtime_error(std::string("argon2id hashing failed: ") + argon2_error_message(rc));
  }
  // The computed length is an upper bound: trim at the terminator.
  if (auto end = encoded.find('\0'); end != std::string::npos) encoded.resize(end);
  return encoded;
}

bool SecretHasher::VerifySecret(std::string_view encoded, std::string_view secret) const noexcept {
  verify_count_.fetch_add(1);
  if (!encoded.starts_with("$argon2id$")) return false;
  try {
    std::string terminated(encoded);  // argon2 wants a NUL-terminated encoded string
    return argon2id_verify(terminated.c_str(), secret.data(), secret.size()) == ARGON2_OK;
  } catch (...) {
    return false;
  }
}

}  // namespace dp
