#include "datapipelines/service/identity/api_key_format.hpp"

#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

bool IsBase32(std::string_view text) {
  for (char c : text) {
    bool upper = c >= 'A' && c <= 'Z';
    bool digit = c >= '2' && c <= '7';
    if (!upper && !digit) return false;
  }
  return true;
}

}  // namespace

GeneratedApiKey GenerateApiKey() {
  GeneratedApiKey key;
  key.id = std::string(kApiKeyPrefix) + RandomBase32(kApiKeyIdChars);
  key.plaintext = key.id + "." + RandomBase32(kApiKeySecretChars);
  return key;
}

std::optional<ParsedApiKey> ParseApiKey(std::string_view token) {
  if (token.size() != kApiKeyTokenChars || !HasApiKeyPrefix(token)) return std::nullopt;
  const std::size_t dot = kApiKeyPrefix.size() + kApiKeyIdChars;
  if (token[dot] != '.') return std::nullopt;
  std::string_view id_part = token.substr(kApiKeyPrefix.size(), kApiKeyIdChars);
  std::string_view secret_part = token.substr(dot + 1);
  if (!IsBase32(id_part) || !IsBase32(secret_part)) return std::nullopt;
  return ParsedApiKey{std::string(token.substr(0, dot)), std::string(token)};
}

bool HasApiKeyPrefix(std::string_view token) { return token.starts_with(kApiKeyPrefix); }

}  // namespace dp
