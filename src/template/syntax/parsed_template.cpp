#include "datapipelines/template/syntax/parsed_template.hpp"

#include "template/syntax/template_ast.hpp"
#include "template/syntax/template_validator.hpp"

namespace dp {

ParsedTemplate::ParsedTemplate(std::shared_ptr<const tmpl::TemplateAst> ast, TemplateMode mode)
    : ast_(std::move(ast)), mode_(mode) {}

const std::string& ParsedTemplate::name() const { return ast_->name; }

bool ParsedTemplate::IsLibraryBody() const { return tmpl::TemplateValidator::IsLibraryBody(*ast_); }

ParsedTemplate ParsedTemplate::WithImports(
    std::map<std::string, std::shared_ptr<const ParsedTemplate>> imports) const {
  ParsedTemplate copy = *this;
  copy.imports_ = std::move(imports);
  return copy;
}

}  // namespace dp
