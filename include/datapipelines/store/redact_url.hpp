#pragma once
// Credential redaction for database URLs, so no password reaches a message or log line.
#include <string>
#include <string_view>

namespace dp {

// "postgresql://dp:secret@host/db?password=x" -> "postgresql://dp:***@host/db?password=***".
// Also masks `password=` in libpq keyword/value strings. Text without secrets is unchanged.
std::string RedactUrl(std::string_view url);

// Replaces every occurrence of the password `url` carries (if any) inside `message` with
// "***" — for driver errors that might echo it back.
std::string ScrubSecrets(std::string_view message, std::string_view url);

}  // namespace dp
