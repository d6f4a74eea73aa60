#pragma once
// One cell's canonical wire value before it becomes JSON: the single decision both the Json
// encoder (WireEncoder::Encode) and the streaming writer (WireJsonWriter) render, so the two
// can never disagree. `text` points into the driver's text or into the caller's scratch.
#include <cstdint>
#include <string_view>

namespace dp {

struct WireScalar {
  enum class Kind { kNull, kBool, kInteger, kDouble, kText };
  Kind kind = Kind::kNull;
  bool flag = false;
  int64_t integer = 0;
  double number = 0;
  std::string_view text;
};

}  // namespace dp
