#pragma once
// The operators of the expression language as an enum, resolved at parse time: rendering
// dispatches on the value and never compares operator text; the text is kept for messages.
#include <cstdint>
#include <string_view>

namespace dp::tmpl {

enum class Operator : uint8_t {
  kNone,
  // kArithmetic
  kAdd,
  kSubtract,
  kMultiply,
  kDivide,
  kModulo,
  // kCompare ("=" and the lt/lte/gt/gte words parse to these)
  kEqual,
  kNotEqual,
  kLess,
  kLessEqual,
  kGreater,
  kGreaterEqual,
  // kRange: "..", "..<" (also written "..!"), "..*"
  kRangeInclusive,
  kRangeExclusive,
  kRangeLength,
  // <#assign>, <#global>, <#local>
  kAssign,
  kAddAssign,
  kSubtractAssign,
  kMultiplyAssign,
  kDivideAssign,
  kModuloAssign,
  kIncrement,
  kDecrement,
};

// The operator a token's text spells, kNone for any other text.
Operator OperatorFromText(std::string_view text);
// The canonical text ("==" for kEqual, "..<" for kRangeExclusive), as messages quote it.
std::string_view OperatorText(Operator op);

}  // namespace dp::tmpl
