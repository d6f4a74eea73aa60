#pragma once
// Parses a template body into a ParsedTemplate and runs the save-time checks of
// templates.md §4.2/§7 on the parse tree: syntax, forbidden constructs, library shape.
//
// Failures throw dp::DomainError:
//   template.validation.syntax_error        details {line, column, template} (over-cap body:
//                                           details {reason: "body_too_long", max_body_chars})
//   template.validation.dangerous_construct ?eval ?interpret ?eval_json ?api ?new, <#import>,
//                                           <#include>, <#ftl>, square-bracket tags [#.. [@.. [=..
//                                           details {construct, line, column, template}
//   template.validation.is_library_without_macros (ParseOptions::library only)
#include <cstddef>
#include <string>
#include <string_view>

#include "datapipelines/template/syntax/parsed_template.hpp"

namespace dp {

struct ParseOptions {
  TemplateMode mode = TemplateMode::kSql;
  // datapipelines.templates.max-body-chars (configuration §3.9), counted in bytes.
  size_t max_body_chars = 262144;
  // Validate the body as a library (is_library: true).
  bool library = false;
  // Name used in error details (e.g. "id@version").
  std::string name = "template";
  // Bound on nesting of directives and expressions, so adversarial bodies cannot overflow
  // the stack.
  int max_nesting_depth = 200;
};

class TemplateParser {
 public:
  static ParsedTemplate Parse(std::string_view body, const ParseOptions& options = {});
};

}  // namespace dp
