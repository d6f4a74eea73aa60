#pragma once
// Request bodies are parsed in two passes: a byte scan bounds the nesting depth before any DOM
// exists (a deeply nested body would otherwise overflow the stack while the tree is built,
// copied or destroyed), then the ordinary parse. Every transport parses its bodies here.
#include <string_view>

#include "datapipelines/util/json.hpp"

namespace dp {

// The default of datapipelines.http.max-json-depth.
inline constexpr int kDefaultMaxJsonDepth = 64;

// Deepest nesting of '[' / '{' outside string literals, scanning no further than the point
// where it exceeds `stop_above` (so the answer is at most stop_above + 1). Linear, no
// allocation; malformed text is the parser's business, not this scan's.
int JsonNestingDepth(std::string_view text, int stop_above);

// True when a string literal of `text` spells U+0000 (`\u0000`): a NUL would be cut by every
// C API downstream while the audit keeps the whole value, so no body may carry one.
bool JsonHasNulEscape(std::string_view text);

enum class JsonBodyFault { kNone, kMalformed, kTooDeep, kNulCharacter };

struct JsonBody {
  Json value;  // discarded unless fault is kNone or kNulCharacter (parsed, to name the id)
  JsonBodyFault fault = JsonBodyFault::kNone;
};

// Parses `text` when its nesting is at most `max_depth`; never throws. kNulCharacter still
// carries the parsed value (a JSON-RPC answer names the request's id).
JsonBody ParseJsonBody(std::string_view text, int max_depth);

}  // namespace dp
