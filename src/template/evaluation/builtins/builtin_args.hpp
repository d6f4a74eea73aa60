#pragma once
// The evaluated arguments of one built-in call, with the checks every family makes of them.
#include <cstddef>
#include <span>
#include <string>

#include "template/evaluation/value_ptr.hpp"
#include "template/java/decimal.hpp"
#include "template/syntax/template_ast.hpp"

namespace dp::tmpl {

class Evaluator;

struct BuiltInArgs {
  Evaluator& evaluator;
  const Expr* e;  // the kBuiltIn call; e->call_args[i] produced values[i]
  std::span<const ValuePtr> values;

  bool empty() const { return values.empty(); }
  size_t size() const { return values.size(); }
  // Fails the render unless min <= size() <= max.
  void Need(size_t min, size_t max) const;
  const std::string& String(size_t i) const;
  const Decimal& Number(size_t i) const;
};

}  // namespace dp::tmpl
