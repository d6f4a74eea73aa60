#include "datapipelines/util/json_body.hpp"

namespace dp {

int JsonNestingDepth(std::string_view text, int stop_above) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (++depth > deepest) {
          deepest = depth;
          if (deepest > stop_above) return deepest;
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return deepest;
}

bool JsonHasNulEscape(std::string_view text) {
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (!in_string) {
      in_string = c == '"';
      continue;
    }
    if (c == '"') {
      in_string = false;
    } else if (c == '\\') {
      if (text.substr(i + 1, 5) == "u0000") return true;
      ++i;  // the escaped character (a \u's hex digits are plain characters)
    }
  }
  return false;
}

JsonBody ParseJsonBody(std::string_view text, int max_depth) {
  JsonBody body;
  if (JsonNestingDepth(text, max_depth) > max_depth) {
    body.value = Json(Json::value_t::discarded);
    body.fault = JsonBodyFault::kTooDeep;
    return body;
  }
  body.value = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (body.value.is_discarded()) {
    body.fault = JsonBodyFault::kMalformed;
  } else if (JsonHasNulEscape(text)) {
    body.fault = JsonBodyFault::kNulCharacter;
  }
  return body;
}

}  // namespace dp
