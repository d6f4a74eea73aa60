#pragma once
// Save-time checks that walk the parse tree (templates.md §4.2, §6.2, §7): forbidden
// constructs and the library shape. Working on the AST, not the text, means a payload hidden
// in a string literal or comment can neither trigger nor evade a refusal.
#include <string>

#include "template/syntax/template_ast.hpp"

namespace dp::tmpl {

struct Violation {
  std::string construct;
  SourcePos pos;
};

class TemplateValidator {
 public:
  // The first forbidden construct in document order, if any.
  static std::optional<Violation> FindDangerousConstruct(const TemplateAst& ast);
  // True when the top level holds only macro/function definitions, comments and whitespace,
  // and at least one definition.
  static bool IsLibraryBody(const TemplateAst& ast);
};

}  // namespace dp::tmpl
