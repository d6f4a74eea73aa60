#pragma once
// Small wrappers over OpenSSL used across modules.
#include <cstddef>
#include <string>
#include <string_view>

namespace dp {

// Cryptographically secure random bytes.
std::string RandomBytes(std::size_t count);
// Random RFC 4122 version-4 UUID, lowercase.
std::string NewUuid();
bool IsUuid(std::string_view text);
// The raw 32-byte SHA-256 of the input, and the same as lowercase hex.
std::string Sha256(std::string_view data);
std::string Sha256Hex(std::string_view data);
// Raw 32-byte HMAC-SHA256 of `data` under `key`.
std::string HmacSha256(std::string_view key, std::string_view data);
// RFC 4648 base32 alphabet (A–Z, 2–7), unpadded, `length` characters of randomness.
std::string RandomBase32(std::size_t length);
std::string Base64Encode(std::string_view data);
// Throws std::invalid_argument on malformed input.
std::string Base64Decode(std::string_view text);
// RFC 4648 §5 without padding: session tokens, CSRF tokens, one-time passwords, JOSE parts.
std::string Base64Url(std::string_view bytes);
// RFC 4648 §5 (URL-safe alphabet, padding optional), as JOSE writes it. Throws
// std::invalid_argument on malformed input.
std::string Base64UrlDecode(std::string_view text);
// Constant-time comparison (for secrets).
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace dp
