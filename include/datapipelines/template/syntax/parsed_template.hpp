#pragma once
// An immutable, parsed template body (FreeMarker subset, templates.md §4). Produced by
// TemplateParser::Parse, rendered by TemplateRenderer::Render. Copies share the same parse
// tree, so one ParsedTemplate can be cached and rendered from many threads at once.
#include <map>
#include <memory>
#include <string>

namespace dp {

namespace tmpl {
struct TemplateAst;
}

// 'sql' renders verbatim; 'html' auto-escapes interpolations like FreeMarker's HTML output
// format (the template `type` of spec §6.2.8).
enum class TemplateMode { kSql, kHtml };

class ParsedTemplate {
 public:
  ParsedTemplate(std::shared_ptr<const tmpl::TemplateAst> ast, TemplateMode mode);

  TemplateMode mode() const { return mode_; }
  const std::string& name() const;
  // True when the body holds only <#macro>/<#function> definitions, comments and whitespace
  // and at least one definition (templates.md §6.2).
  bool IsLibraryBody() const;
  // A copy whose own library imports are bound (alias -> library), so a library can import
  // another one transitively (templates.md §6.3 step 3). The parse tree is shared.
  ParsedTemplate WithImports(
      std::map<std::string, std::shared_ptr<const ParsedTemplate>> imports) const;
  const std::map<std::string, std::shared_ptr<const ParsedTemplate>>& imports() const {
    return imports_;
  }

  const tmpl::TemplateAst& ast() const { return *ast_; }

 private:
  std::shared_ptr<const tmpl::TemplateAst> ast_;
  TemplateMode mode_;
  std::map<std::string, std::shared_ptr<const ParsedTemplate>> imports_;
};

}  // namespace dp
