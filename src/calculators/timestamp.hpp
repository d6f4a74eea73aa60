#pragma once
// The TIMESTAMP wire form: ISO-8601 with a `Z` or a numeric offset, read into an absolute
// instant and written back in UTC with `Z` (Java's Instant.toString shape).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dp::calc {

struct Instant {
  int64_t epoch_seconds = 0;
  int32_t nanos = 0;  // 0..999'999'999
};

// "2026-06-01T12:00:00Z", "2026-06-01T12:00Z", "2026-06-01T14:00:00.5+02:00". The offset is
// required: a timestamp without one is not an instant.
std::optional<Instant> ParseTimestamp(std::string_view text);
// "2026-06-01T10:00:00Z"; a fraction only when non-zero, in groups of three digits.
std::string FormatTimestamp(const Instant& instant);

}  // namespace dp::calc
