#include "template/syntax/template_operator.hpp"

#include <array>
#include <utility>

namespace dp::tmpl {
namespace {

constexpr std::array<std::pair<Operator, std::string_view>, 22> kOperatorNames{{
    {Operator::kAdd, "+"},
    {Operator::kSubtract, "-"},
    {Operator::kMultiply, "*"},
    {Operator::kDivide, "/"},
    {Operator::kModulo, "%"},
    {Operator::kEqual, "=="},
    {Operator::kNotEqual, "!="},
    {Operator::kLess, "<"},
    {Operator::kLessEqual, "<="},
    {Operator::kGreater, ">"},
    {Operator::kGreaterEqual, ">="},
    {Operator::kRangeInclusive, ".."},
    {Operator::kRangeExclusive, "..<"},
    {Operator::kRangeLength, "..*"},
    {Operator::kAssign, "="},
    {Operator::kAddAssign, "+="},
    {Operator::kSubtractAssign, "-="},
    {Operator::kMultiplyAssign, "*="},
    {Operator::kDivideAssign, "/="},
    {Operator::kModuloAssign, "%="},
    {Operator::kIncrement, "++"},
    {Operator::kDecrement, "--"},
}};

}  // namespace

Operator OperatorFromText(std::string_view text) {
  for (const auto& [op, spelled] : kOperatorNames) {
    if (spelled == text) return op;
  }
  return Operator::kNone;
}

std::string_view OperatorText(Operator op) {
  for (const auto& [known, spelled] : kOperatorNames) {
    if (known == op) return spelled;
  }
  return "";
}

}  // namespace dp::tmpl
