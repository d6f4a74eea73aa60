#pragma once
// Renders a ParsedTemplate against a JSON data model, with FreeMarker 2.3.31 semantics
// (configured as: number_format "computer", boolean_format "c", locale en_US, BigDecimal
// arithmetic, HTML output format in html mode). JSON null is a missing value.
//
// Every render is bounded: a step budget (each element, loop iteration and built-in call costs
// steps; building strings costs steps per 64 bytes), an output cap that also bounds every
// in-memory string, and a macro call depth cap. Any failure throws dp::DomainError
// pipeline.node.template_render_failed with details {reason, line, column, template, ...};
// reason is one of undefined_variable, step_budget_exceeded, output_limit_exceeded,
// call_depth_exceeded, memory_budget_exceeded, number_too_large, render_timeout,
// evaluation_error. Numbers are bounded to Decimal::kMaxDigits digits, and arithmetic is
// charged steps by the size of its operands, so the deadline is checked inside long work.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "datapipelines/template/syntax/parsed_template.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

struct RenderOptions {
  uint64_t max_steps = 5'000'000;
  size_t max_output_bytes = 16 * 1024 * 1024;
  int max_call_depth = 100;
  // Peak bytes of the values one render holds (sequences, hashes, chunks, …): beyond it the
  // render fails with reason memory_budget_exceeded (datapipelines.templates.render-max-memory-mb).
  size_t max_memory_bytes = 256 * 1024 * 1024;
  // Wall-clock bound on one render (datapipelines.templates.render-timeout-ms); 0 = none.
  // The clock is read every few thousand steps, so the bound costs nothing per step.
  int64_t timeout_ms = 0;
  // Most digits an arithmetic result may have (datapipelines.templates.render-max-number-digits);
  // larger is refused with reason number_too_large before the arithmetic runs. Literals are
  // bounded at parse time by Decimal's own ceiling, which this may only lower.
  int max_number_digits = 10000;
};

class TemplateRenderer {
 public:
  // `libraries` binds aliases to parsed library templates for `<@alias.macro/>` and
  // `alias.fn()`; they are merged over the template's own WithImports() bindings.
  static std::string Render(const ParsedTemplate& tmpl, const Json& data_model,
                            const RenderOptions& options = {},
                            const std::map<std::string, const ParsedTemplate*>& libraries = {});
};

}  // namespace dp
