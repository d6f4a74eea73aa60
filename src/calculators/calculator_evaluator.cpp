#include "datapipelines/calculators/calculator_evaluator.hpp"

#include "calculators/calculator_kinds.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {

namespace calc {

const CalculatorTable& CalculatorImplementations() {
  static const CalculatorTable kTable = [] {
    CalculatorTable table;
    AddCalendarCalculators(table);
    AddDateTextCalculators(table);
    AddNumericCalculators(table);
    AddValueCalculators(table);
    return table;
  }();
  return kTable;
}

}  // namespace calc

Json EvaluateCalculator(const CalculatorKind& kind, const Json& inputs,
                        const CalculatorEnvironment& env) {
  // Kinds are pure functions of their inputs; the environment reaches them only through
  // resolved references such as $current_date.
  (void)env;
  const auto& table = calc::CalculatorImplementations();
  auto it = table.find(kind.kind);
  if (it == table.end()) {
    throw DomainError(errc::kPipelineCalculatorUnknown,
                      "unknown calculator kind '" + kind.kind + "'",
                      Json{{"kind", kind.kind}, {"known_kinds", CalculatorKindNames()}});
  }
  const calc::CalculatorArgs args(kind, inputs);
  return it->second(args);
}

}  // namespace dp
