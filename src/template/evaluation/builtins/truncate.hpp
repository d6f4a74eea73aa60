#pragma once
// ?truncate, ?truncate_w, ?truncate_c: FreeMarker 2.3.31's DefaultTruncateBuiltinAlgorithm
// (ASCII_INSTANCE, the Configuration default): terminator "[...]", a space before the terminator
// after a whole word, word-boundary cuts preferred when they keep 75% of the length.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dp::tmpl {

enum class TruncateMode { kAuto, kWordBoundary, kCharBoundary };

// `max_length` and `terminator_length` count UTF-16 units and are not negative.
std::string Truncate(std::string_view s, int64_t max_length,
                     std::optional<std::string_view> terminator,
                     std::optional<int64_t> terminator_length, TruncateMode mode);

}  // namespace dp::tmpl
