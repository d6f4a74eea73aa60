#pragma once
// The calculator catalog (calculators.md §2; pipeline-contract §4.10): every kind a CALCULATOR
// node can evaluate, defined once in code. The catalog is a property of the build — identical for
// every caller — and additive forever: a kind never changes meaning.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

// One declared input. `type` is a canonical type name ("DATE", "INTEGER", "DECIMAL", "STRING",
// "TIMESTAMP", "BOOLEAN") or "ANY" (the kind does not look at the value's type).
struct CalculatorInput {
  std::string name;
  std::string type;
  bool optional = false;
  bool list = false;             // takes a JSON array of `type`
  Json default_value = nullptr;  // only when optional; null = no documented default
  std::string description;
};

// One named output of a multi-output kind.
struct CalculatorOutput {
  std::string name;
  std::string type;
  std::string description;
};

struct CalculatorKind {
  std::string kind;  // "fiscal_quarter"
  std::string display_name;
  std::string description;
  std::vector<CalculatorInput> inputs;
  // Single-output kinds: the output type ("ANY" allowed) and `outputs` empty.
  // Multi-output kinds: `output_type` empty and `outputs` the named set.
  std::string output_type;
  std::vector<CalculatorOutput> outputs;
  Json example_inputs = Json::object();  // the worked example: input name -> literal
  Json example_output;                   // its answer: a value, or {output name: value}
  std::vector<std::string> phrases;

  bool multi_output() const { return !outputs.empty(); }
  const CalculatorInput* FindInput(std::string_view name) const;
  // The type a key written for `output_name` carries ("" on a single-output kind = output_type).
  const CalculatorOutput* FindOutput(std::string_view name) const;
  // The catalog entry as calculators_list / calculators_get return it (spec §6.2.23).
  Json ToJson() const;
};

// Every kind, in catalog order (calculators.md §2.1, §2.2, §2.3).
std::span<const CalculatorKind> AllCalculators();
// nullptr when `kind` is not in the catalog.
const CalculatorKind* FindCalculator(std::string_view kind);
// The kind names, for pipeline.validation.calculator_unknown's details.known_kinds.
std::vector<std::string> CalculatorKindNames();

// Whether a literal (never a "$reference" — callers resolve those first) fits an input's
// declared type in wire form: DATE an exact "YYYY-MM-DD" real date, TIMESTAMP ISO-8601 with a
// `Z` or offset, INTEGER a JSON integer, DECIMAL a JSON number, STRING a string, BOOLEAN a
// JSON boolean, ANY any scalar (null included); `list` = a JSON array of such values.
bool LiteralMatchesType(const Json& literal, const std::string& canonical_type, bool list);

}  // namespace dp
