#pragma once
// Authenticated encryption of secrets at rest (datasources.md §7.1): AES-256-GCM with a
// fresh random 96-bit nonce per seal and caller-supplied associated data (the datasource
// name), stored as a versioned text envelope "v1:" + base64(nonce ‖ ciphertext ‖ tag).
#include <stdexcept>
#include <string>
#include <string_view>

namespace dp {

// A seal/open failure. The message never contains key material or plaintext.
class SecretBoxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SecretBox {
 public:
  static constexpr std::size_t kKeyBytes = 32;
  static constexpr std::size_t kNonceBytes = 12;
  static constexpr std::size_t kTagBytes = 16;

  // `raw_key` must be exactly 32 bytes; SecretBoxError otherwise.
  explicit SecretBox(std::string raw_key);
  // base64 of 32 bytes; SecretBoxError naming what is wrong (never the value).
  static SecretBox FromBase64(std::string_view base64_key);
  // The configured key when non-empty; otherwise the key file at `key_file`, created with a
  // fresh random key (mode 0600) when absent and `may_generate` holds. Throws SecretBoxError
  // when no key can be had (production mode without a configured key).
  static SecretBox FromConfigOrKeyFile(std::string_view configured_base64,
                                       const std::string& key_file, bool may_generate);

  // A 32-byte sub-key for `purpose` (HMAC-SHA256 of the purpose under the key): other uses of
  // the shared secret (e.g. signing resources/list cursors) without exposing the key itself.
  // Every instance configured with the same key derives the same sub-key.
  std::string DeriveKey(std::string_view purpose) const;

  std::string Seal(std::string_view plaintext, std::string_view associated_data) const;
  // Throws SecretBoxError on a malformed envelope, a wrong key or a wrong associated data.
  std::string Open(std::string_view envelope, std::string_view associated_data) const;

 private:
  std::string key_;
};

}  // namespace dp
