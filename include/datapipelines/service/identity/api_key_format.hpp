#pragma once
// API key anatomy (auth.md §7.1): "dpk_<12 base32>.<48 base32>". The part before the dot is
// the public key id (stored in clear, shown in lists); the whole token is the secret.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dp {

inline constexpr std::string_view kApiKeyPrefix = "dpk_";
inline constexpr std::size_t kApiKeyIdChars = 12;
inline constexpr std::size_t kApiKeySecretChars = 48;
// "dpk_" + 12 + "." + 48.
inline constexpr std::size_t kApiKeyTokenChars =
    kApiKeyPrefix.size() + kApiKeyIdChars + 1 + kApiKeySecretChars;

struct GeneratedApiKey {
  std::string id;         // "dpk_<12>" — the public handle
  std::string plaintext;  // "dpk_<12>.<48>" — shown once, never stored
};

struct ParsedApiKey {
  std::string id;    // "dpk_<12>"
  std::string full;  // the whole token, the input of the Argon2id verification
};

GeneratedApiKey GenerateApiKey();

// Strict: exact length, prefix, '.' separator, upper-case RFC 4648 base32 on both sides.
std::optional<ParsedApiKey> ParseApiKey(std::string_view token);

// True when a Bearer token claims to be an API key (the transport routes it to key auth).
bool HasApiKeyPrefix(std::string_view token);

}  // namespace dp
