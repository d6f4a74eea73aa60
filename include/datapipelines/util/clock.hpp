#pragma once
#include <cstdint>
#include <string>

namespace dp {

// Wall-clock milliseconds since the Unix epoch (UTC).
int64_t NowMs();
// "2026-11-30T16:34:04.123Z" for epoch milliseconds.
std::string FormatIso8601Ms(int64_t epoch_ms);

}  // namespace dp
