#pragma once
// Wire DATE / TIMESTAMP text to the integers Arrow stores (Date32 days, Timestamp µs UTC).
#include <cstdint>
#include <string_view>

namespace dp::arrow {

// "YYYY-MM-DD" → days since 1970-01-01 (negative before). Throws std::invalid_argument.
int32_t DaysSinceEpoch(std::string_view date);

// "YYYY-MM-DD[T| ]HH:MM:SS[.fraction][Z|±HH[:MM[:SS]]]" → microseconds since the epoch, UTC.
// No zone means UTC; digits past the sixth fraction digit are truncated toward the past.
// Throws std::invalid_argument.
int64_t MicrosSinceEpoch(std::string_view timestamp);

}  // namespace dp::arrow
