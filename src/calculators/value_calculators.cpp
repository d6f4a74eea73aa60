// Value kinds (calculators §2.3): they pass values through without looking at their type.
#include "calculators/calculator_kinds.hpp"

namespace dp::calc {
namespace {

Json Coalesce(const CalculatorArgs& args) {
  for (const Json& value : args.Array("values")) {
    if (!value.is_null()) return value;
  }
  return nullptr;
}

Json IfNull(const CalculatorArgs& args) {
  const Json& value = args.Value("value");
  return value.is_null() ? args.Value("default") : value;
}

Json Map(const CalculatorArgs& args) {
  const Json& from = args.Array("from");
  const Json& to = args.Array("to");
  if (from.size() != to.size()) {
    args.Fail("to", "has " + std::to_string(to.size()) + " entries but from has " +
                        std::to_string(from.size()) + "; the arrays are parallel");
  }
  const Json& value = args.Value("value");
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] == value) return to[i];
  }
  return args.Value("default");
}

}  // namespace

void AddValueCalculators(CalculatorTable& table) {
  table.emplace("coalesce", Coalesce);
  table.emplace("if_null", IfNull);
  table.emplace("map", Map);
}

}  // namespace dp::calc
