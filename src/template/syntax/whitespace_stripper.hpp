#pragma once
// FreeMarker's white-space stripping (TextBlock.postParseCleanup of 2.3.31), replayed on our
// tree: lines holding only FTL tags lose their indentation and line break, and whitespace-only
// text between non-outputting elements (macros, assignments, comments) disappears.
#include "template/syntax/template_ast.hpp"

namespace dp::tmpl {

class WhitespaceStripper {
 public:
  static void Strip(Node* root);
};

}  // namespace dp::tmpl
