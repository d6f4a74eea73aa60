#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "datapipelines/util/json.hpp"

namespace dp {

// Wall-clock milliseconds since the Unix epoch (UTC).
int64_t NowMs();
// "2026-11-30T16:34:04.123Z" for epoch milliseconds.
std::string FormatIso8601Ms(int64_t epoch_ms);
// The same text as JSON, or null for 0 (an instant never recorded: a running execution's end).
Json IsoOrNull(int64_t epoch_ms);
// "2026-12-31T00:00:00Z" (UTC, seconds precision) → epoch ms; nullopt when malformed.
std::optional<int64_t> ParseIso8601Utc(std::string_view text);

}  // namespace dp
